// Jest reporter: writes a run's totals to .test-results/<name>.json, which scripts/test-summary.mjs
// sums into the one closing line of `pnpm test`.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

module.exports = class ResultsFileReporter {
  constructor(_globalConfig, options) {
    this.name = options.name;
  }

  onRunComplete(_contexts, results) {
    const directory = join(__dirname, '..', '.test-results');
    mkdirSync(directory, { recursive: true });
    const {
      numPassedTests,
      numFailedTests,
      numPendingTests,
      numTodoTests,
      numFailedTestSuites,
      numRuntimeErrorTestSuites,
    } = results;
    writeFileSync(
      join(directory, `${this.name}.json`),
      JSON.stringify({
        numPassedTests,
        numFailedTests,
        numPendingTests,
        numTodoTests,
        numFailedTestSuites,
        numRuntimeErrorTestSuites,
      }),
    );
  }
};
