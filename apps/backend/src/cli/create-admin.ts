import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { startApp } from '@rt/database';
import { runEntryPoint } from '@rt/platform';
import { AppModule } from '../app.module';
import { loadBackendConfig } from '../config';
import { BACKEND_EXTENSIONS } from '../database/extensions';
import { UsersService } from '../users/users.service';

const USAGE = `Creates a super-admin, or resets an existing account to one (new password, every device signed out).

  pnpm --filter backend user:create-admin [--email <email>] [--password <password>]

  --email     default: ADMIN_EMAIL, else admin@example.com
  --password  default: ADMIN_PASSWORD, else a generated one, printed once (prefer the variable:
              arguments are visible in the process list)

Works on DATABASE_URL, or on the embedded database (DATA_DIR) when it is unset; stop the demo
server first, the embedded database is single-process.`;

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
    const result = await app.get(UsersService).createOrResetSuperAdmin({
      email: config.ADMIN_EMAIL ?? 'admin@example.com',
      password: config.ADMIN_PASSWORD,
    });
    console.log(`Super-admin ${result.outcome}: ${result.email}`);
    if (result.generatedPassword) console.log(`Password (shown only this once): ${result.generatedPassword}`);
  } finally {
    await close();
  }
}

runEntryPoint(main);
