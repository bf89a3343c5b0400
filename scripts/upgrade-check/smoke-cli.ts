// The smoke flows as a command, so that the upgrade check runs a version's own flows (built in its
// worktree) against that version's services:
//
//   node scripts/upgrade-check/dist/upgrade-check/smoke-cli.js --backend <url> --search <url>
//     --admin-email <email> --mail-dir <dir> --catalogue <file> --label <label> [--mode full|reads]
//
// The admin's password comes from UPGRADE_CHECK_ADMIN_PASSWORD (arguments show in the process list).
// The last line of the output is `UPGRADE-CHECK-RESULT <json>` (SmokeResult); the exit code is 0
// when every request held, 1 otherwise. Keep this interface: later versions run earlier ones' flows.
import { parseArgs } from 'node:util';
import { RESULT_PREFIX, runSmoke } from './smoke';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      backend: { type: 'string' },
      search: { type: 'string' },
      'admin-email': { type: 'string' },
      'mail-dir': { type: 'string' },
      catalogue: { type: 'string' },
      label: { type: 'string' },
      mode: { type: 'string', default: 'full' },
    },
  });
  const password = process.env.UPGRADE_CHECK_ADMIN_PASSWORD;
  const missing = ['backend', 'search', 'admin-email', 'mail-dir', 'catalogue', 'label'].filter(
    (name) => values[name as keyof typeof values] === undefined,
  );
  if (missing.length > 0 || !password || (values.mode !== 'full' && values.mode !== 'reads')) {
    console.error(
      `smoke-cli: needs --${missing.join(', --') || 'mode full|reads'} and UPGRADE_CHECK_ADMIN_PASSWORD`,
    );
    return 2;
  }
  const result = await runSmoke({
    backend: values.backend!,
    search: values.search!,
    adminEmail: values['admin-email']!,
    adminPassword: password,
    mailDir: values['mail-dir']!,
    catalogue: values.catalogue!,
    label: values.label!,
    mode: values.mode,
    log: (line) => console.log(line),
  });
  console.log(`${RESULT_PREFIX}${JSON.stringify(result)}`);
  return result.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
