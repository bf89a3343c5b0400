// Jest reporter: writes a run's totals to .test-results/<name>.json, which scripts/test-summary.mjs
// sums into the one closing line of `pnpm test`, with every test that did not run (skipped or to
// do): its file and its full name, which says why ("[skipped: …]", see test-summary.mjs).
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

/** The totals of Jest's aggregated results that go into the file, in this order. */
const TOTALS = [
  'numPassedTests',
  'numFailedTests',
  'numPendingTests',
  'numTodoTests',
  'numFailedTestSuites',
  'numRuntimeErrorTestSuites',
];

/** Jest's statuses of a test that did not run. */
const NOT_RUN = new Set(['pending', 'skipped', 'todo', 'disabled']);

module.exports = class ResultsFileReporter {
  constructor(_globalConfig, options) {
    this.name = options.name;
  }

  onRunComplete(_contexts, results) {
    const root = join(__dirname, '..');
    const directory = join(root, '.test-results');
    mkdirSync(directory, { recursive: true });
    const totals = Object.fromEntries(TOTALS.map((name) => [name, results[name]]));
    const notRun = results.testResults.flatMap((file) =>
      file.testResults
        .filter((test) => NOT_RUN.has(test.status))
        .map((test) => ({
          file: relative(root, file.testFilePath),
          name: [...test.ancestorTitles, test.title].join(' › '),
          status: test.status,
        })),
    );
    writeFileSync(join(directory, `${this.name}.json`), JSON.stringify({ ...totals, notRun }));
  }
};
