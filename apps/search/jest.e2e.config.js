// End-to-end tests on a real PostgreSQL (TEST_DATABASE_URL) or the embedded one: jest.e2e.base.config.js.
module.exports = require('../../jest.e2e.base.config.js')({ resultsName: 'search-e2e', rootDir: __dirname });
