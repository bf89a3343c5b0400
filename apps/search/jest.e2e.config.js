// End-to-end tests on a real PostgreSQL (TEST_DATABASE_URL) or the embedded one; each test file
// gets its own database, copied from one migrated in the global setup.
module.exports = require('../../jest.base.config.js')({
  resultsName: 'search-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
});
