import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { startApp } from '@rt/database';
import { runEntryPoint } from '@rt/platform';
import { AppModule } from '../app.module';
import { loadBackendConfig } from '../config';
import { BACKEND_EXTENSIONS } from '../database/extensions';
import { requestAdminReset } from '../users/admin-reset-channel';
import { type ProvisionedSuperAdmin, UsersService } from '../users/users.service';

const USAGE = `Creates a super-admin, or resets an existing account to one (new password, every device signed out).

  pnpm --filter backend user:create-admin [--email <email>] [--password <password>]

  --email     default: ADMIN_EMAIL, else admin@example.com
  --password  default: ADMIN_PASSWORD, else a generated one, printed once (prefer the variable:
              arguments are visible in the process list)

Works on DATABASE_URL, or on the embedded database (DATA_DIR) when it is unset. While the demo
run (pnpm start) holds the embedded database, the running backend makes the change (D-80).
A reset signs the account out everywhere and ends the links mailed to it.`;

async function main(): Promise<void> {
  // `pnpm … user:create-admin -- --email x` passes the `--` along.
  const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  // The arguments go through the same validation as the variables.
  const config = loadBackendConfig({
    ...process.env,
    ...(values.email ? { ADMIN_EMAIL: values.email } : {}),
    ...(values.password ? { ADMIN_PASSWORD: values.password } : {}),
    LOG_LEVEL: 'warn',
  });
  const input = { email: config.ADMIN_EMAIL ?? 'admin@example.com', password: config.ADMIN_PASSWORD };
  const report = (result: ProvisionedSuperAdmin) => {
    console.log(`Super-admin ${result.outcome}: ${result.email}`);
    if (result.generatedPassword) console.log(`Password (shown only this once): ${result.generatedPassword}`);
  };
  if (!config.DATABASE_URL) {
    const answered = await requestAdminReset(config.dataDir, input);
    if (answered) return report(answered);
  }
  const { app, close } = await startApp(
    {
      app: 'backend',
      url: config.DATABASE_URL,
      dataDir: config.dataDir,
      extensions: BACKEND_EXTENSIONS,
      migrate: config.migrateOnStart,
    },
    (connection) =>
      NestFactory.createApplicationContext(AppModule.forRoot({ config, database: connection }), {
        logger: ['error', 'warn'],
      }),
  );
  try {
    report(await app.get(UsersService).createOrResetSuperAdmin(input));
  } finally {
    await close();
  }
}

runEntryPoint(main);
