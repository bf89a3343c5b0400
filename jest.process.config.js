// Tests of the built services as processes: `pnpm start`'s script, signals, restarts.
module.exports = require('./jest.base.config.js')({
  resultsName: 'process',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.process-spec.ts'],
  testTimeout: 120000,
});
