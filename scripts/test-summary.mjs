// Sums the Jest result files of a `pnpm test` run (.test-results/*.json) into one closing line:
// "tests: N passed, N failed, N skipped", after the reliability figures of the fuzz and fault tests.
// Exits non-zero when a suite failed or nothing ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const directory = join(import.meta.dirname, '..', '.test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
let failedSuites = 0;
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
  console.log(
    `[tests] ${name.replace(/\.json$/, '')}: ${result.numPassedTests} passed, ${result.numFailedTests} failed`,
  );
}
await import('./reliability-figures.mjs');
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedSuites > 0 || passed === 0 ? 1 : 0);
