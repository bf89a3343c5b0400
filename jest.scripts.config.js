// Tests of the repository's own tools (scripts/**/*.spec.ts): the deployment check's, among them.
// Part of `pnpm test`, which needs only Node: a tool's tests that call an outside program
// (`*.tools.spec.ts`: kubectl, promtool) run in the check that owns them (jest.deploy.config.js).
module.exports = require('./jest.base.config.js')({
  resultsName: 'scripts',
  rootDir: __dirname,
  testMatch: ['<rootDir>/scripts/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '\\.tools\\.spec\\.ts$'],
  testTimeout: 60000,
});
