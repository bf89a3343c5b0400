import { DataSource } from 'typeorm';
import { backendTypeOrmOptions } from './typeorm';
import { loadBackendConfig } from '../config';
import { backendEntities } from './entities';
import { backendMigrations } from './migrations';

/**
 * For the TypeORM CLI (`pnpm --filter backend migration:generate`): a real PostgreSQL named by
 * DATABASE_URL, the oldest supported version (15), so generated SQL runs everywhere.
 */
const config = loadBackendConfig();
if (!config.DATABASE_URL) {
  throw new Error(
    'DATABASE_URL must name a PostgreSQL 15 database to generate or run migrations with the CLI',
  );
}

export default new DataSource(
  backendTypeOrmOptions({
    url: config.DATABASE_URL,
    singleSession: false,
    poolSize: 2,
    entities: backendEntities,
    migrations: backendMigrations,
    applicationName: 'backend-cli',
  }),
);
