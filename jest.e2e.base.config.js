// A service's end-to-end tests (apps/<service>/jest.e2e.config.js) on a real PostgreSQL
// (TEST_DATABASE_URL) or the embedded one; each test file gets its own database, copied from one
// migrated in the service's global setup (test/global-setup.ts).
module.exports = ({ resultsName, rootDir }) =>
  require('./jest.base.config.js')({
    resultsName,
    rootDir,
    testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/src/**/*.e2e-spec.ts'],
    globalSetup: '<rootDir>/test/global-setup.ts',
    globalTeardown: '<rootDir>/test/global-teardown.ts',
    testTimeout: 60000,
    maxWorkers: 2,
  });
