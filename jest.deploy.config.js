// The deployment check's tests that need its tools (kubectl, promtool): run by `pnpm check:deploy`
// after the check itself, not by `pnpm test` (scripts/deploy-check/README.md).
module.exports = require('./jest.base.config.js')({
  resultsName: 'deploy',
  rootDir: __dirname,
  testMatch: ['<rootDir>/scripts/deploy-check/*.tools.spec.ts'],
  testTimeout: 60000,
});
