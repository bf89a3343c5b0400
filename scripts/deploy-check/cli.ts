// `pnpm check:deploy [root]`: validates docker/, k8s/ and .github/ offline (README.md beside this file).
import { resolve } from 'node:path';
import { checkDeployment } from './check';

async function main(): Promise<number> {
  const root = resolve(process.argv[2] ?? resolve(__dirname, '..', '..', '..'));
  const started = Date.now();
  let failed = 0;
  for (const { section, problems } of await checkDeployment(root)) {
    console.log(`[check:deploy] ${problems.length === 0 ? 'ok  ' : 'FAIL'} ${section}`);
    for (const problem of problems) console.log(`  - ${problem}`);
    failed += problems.length;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    failed === 0
      ? `[check:deploy] deployment files valid (${seconds} s)`
      : `[check:deploy] ${failed} problem(s) (${seconds} s)`,
  );
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
