// `pnpm check:upgrade`: every new migration is safe for the previous release still serving
// (k8s/README.md: the migration Jobs run before the Deployments roll one pod at a time). See
// scripts/upgrade-check/README.md and docs/architecture.md, "Migrations: expand, then contract".
//
//   node scripts/upgrade-check/dist/upgrade-check/cli.js [--previous <commit or tag>] [--keep]
//   node scripts/upgrade-check/dist/upgrade-check/cli.js --self-test
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanup, DEFAULT_SERVER_URL, isCheckFailure, runCheck, running } from './check';
import { runSelfTest } from './self-test';

const USAGE = `pnpm check:upgrade [-- options]

Builds the previous release (a tag v*, else the newest first-parent commit whose migrations differ
from the working tree's) in a temporary worktree, migrates two fresh databases with the working
tree's built migrations, starts both versions' services on them and runs each version's smoke flows.
Any failure names the migrations the previous release did not have and the failing request.

  --previous <rev>  use this commit or tag as the previous release
  --keep            keep the temporary folder with the logs
  --self-test       add a migration that breaks the previous release to a temporary worktree of HEAD
                    and make sure the check fails naming it
  --root <dir>      the repository to check (default: this one)

PostgreSQL (with pgvector): UPGRADE_CHECK_DATABASE_URL, else TEST_DATABASE_URL, else
${DEFAULT_SERVER_URL}; two databases upgrade_check_* are created and dropped.`;

/** The repository, from this file's compiled copy in scripts/upgrade-check/dist/upgrade-check. */
const ownRoot = resolve(__dirname, '..', '..', '..', '..');
const log = (line: string) => console.log(`[upgrade-check] ${line}`);
let interrupted = false;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`[upgrade-check] ${signal}: stopping (again to force)`);
  });
}
// Last resort (a second signal): no service survives the check.
process.on('exit', () => {
  for (const { child } of running)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--')),
    options: {
      previous: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'self-test': { type: 'boolean', default: false },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const serverUrl =
    process.env.UPGRADE_CHECK_DATABASE_URL || process.env.TEST_DATABASE_URL || DEFAULT_SERVER_URL;
  if (values['self-test']) {
    return runSelfTest({
      root: ownRoot,
      cli: __filename,
      log: (line) => console.log(`[upgrade-check self-test] ${line}`),
    });
  }
  return runCheck({
    root: values.root ? resolve(values.root) : ownRoot,
    previous: values.previous,
    serverUrl,
    keep: values.keep,
    log,
    aborted: () => interrupted,
  });
}

const startedAt = Date.now();
main()
  .catch((error: unknown) => {
    console.error(
      `[upgrade-check] ${isCheckFailure(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return interrupted ? 130 : 1;
  })
  .then(async (code) => {
    for (const problem of await cleanup()) console.error(`[upgrade-check] cleanup: ${problem}`);
    log(`${code === 0 ? 'done' : 'failed'} in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
    process.exit(code);
  })
  .catch(() => process.exit(1));
