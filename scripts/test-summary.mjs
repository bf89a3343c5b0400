// Sums the Jest result files of a `pnpm test` run (.test-results/*.json) into one closing line:
// "tests: N passed, N failed, N skipped", after the reliability figures of the fuzz and fault tests
// and, above them, every test that did not run (skipped or to do), named with its file and why.
// A test that may not run says why in its title or its block's, as "[skipped: <reason>]"; a skip
// without one fails the summary, so that no test stops running unnoticed.
// Exits non-zero when a suite failed, a skip gives no reason, or nothing ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const directory = join(import.meta.dirname, '..', '.test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
let failedSuites = 0;
const notRun = [];
let files = [];
try {
  files = readdirSync(directory).filter((name) => name.endsWith('.json'));
} catch {
  // no results at all: reported below
}
for (const name of files) {
  const result = JSON.parse(readFileSync(join(directory, name), 'utf8'));
  // Tests also write their figures here (faults-backend.json …): only Jest's result files count.
  if (typeof result.numPassedTests !== 'number') continue;
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  skipped += result.numPendingTests + result.numTodoTests;
  failedSuites += result.numFailedTestSuites + (result.numRuntimeErrorTestSuites ?? 0);
  notRun.push(...(result.notRun ?? []));
  const notRunHere = result.numPendingTests + result.numTodoTests;
  console.log(
    `[tests] ${name.replace(/\.json$/, '')}: ${result.numPassedTests} passed, ${result.numFailedTests} failed${notRunHere > 0 ? `, ${notRunHere} skipped` : ''}`,
  );
}

/** The reason a test that did not run gives in its full name, or undefined. */
const reasonOf = (test) =>
  test.status === 'todo' ? 'to do (it.todo)' : /\[skipped: ([^\]]+)\]/.exec(test.name)?.[1];
const unexplained = notRun.filter((test) => !reasonOf(test));
if (notRun.length > 0) {
  console.log(`not run (${notRun.length}):`);
  for (const test of notRun) {
    console.log(
      `  - ${test.file}: ${test.name} — ${reasonOf(test) ?? 'NO REASON GIVEN (say why in its title: [skipped: …])'}`,
    );
  }
}

await import('./reliability-figures.mjs');
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (unexplained.length > 0) {
  console.log(`${unexplained.length} test(s) skipped without a reason: see "not run" above`);
}
process.exit(failed > 0 || failedSuites > 0 || unexplained.length > 0 || passed === 0 ? 1 : 0);
