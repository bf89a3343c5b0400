// Tests of the repository's own tools (scripts/**/*.spec.ts): the deployment check's, among them.
module.exports = require('./jest.base.config.js')({
  resultsName: 'scripts',
  rootDir: __dirname,
  testMatch: ['<rootDir>/scripts/**/*.spec.ts'],
  testTimeout: 60000,
});
