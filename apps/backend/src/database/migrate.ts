import { runMigrateCommand } from '@rt/database';
import { runEntryPoint } from '@rt/platform';
import { loadBackendConfig } from '../config';
import { BACKEND_EXTENSIONS } from './extensions';
import { backendMigrations } from './migrations';

/** `pnpm --filter backend migration:run`: pending migrations on DATABASE_URL or the embedded database. */
async function main(): Promise<void> {
  const config = loadBackendConfig();
  await runMigrateCommand({
    app: 'backend',
    url: config.DATABASE_URL,
    dataDir: config.dataDir,
    extensions: BACKEND_EXTENSIONS,
    migrations: backendMigrations,
  });
}

runEntryPoint(main);
