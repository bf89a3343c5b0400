// Jest reporter: writes a run's totals to .test-results/<name>.json, which scripts/test-summary.mjs
// sums into the one closing line of `pnpm test`.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** The totals of Jest's aggregated results that go into the file, in this order. */
const TOTALS = [
  'numPassedTests',
  'numFailedTests',
  'numPendingTests',
  'numTodoTests',
  'numFailedTestSuites',
  'numRuntimeErrorTestSuites',
];

module.exports = class ResultsFileReporter {
  constructor(_globalConfig, options) {
    this.name = options.name;
  }

  onRunComplete(_contexts, results) {
    const directory = join(__dirname, '..', '.test-results');
    mkdirSync(directory, { recursive: true });
    const totals = Object.fromEntries(TOTALS.map((name) => [name, results[name]]));
    writeFileSync(join(directory, `${this.name}.json`), JSON.stringify(totals));
  }
};
