import { defaultDataDir, runMigrateCommand } from '@rt/database';
import { BaseEnv, loadSections, runEntryPoint } from '@rt/platform';
import { SEARCH_EXTENSIONS } from './extensions';
import { searchMigrations } from './migrations';

/** `pnpm --filter search migration:run`: pending migrations on DATABASE_URL or the embedded database. */
async function main(): Promise<void> {
  const config = loadSections([BaseEnv] as const);
  await runMigrateCommand({
    app: 'search',
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR ?? defaultDataDir('search'),
    extensions: SEARCH_EXTENSIONS,
    migrations: searchMigrations,
  });
}

runEntryPoint(main);
