import { DataSource } from 'typeorm';
import { typeOrmOptions } from '@rt/database';
import { loadSearchConfig } from '../config';
import { searchEntities } from './entities';
import { searchMigrations } from './migrations';

/**
 * For the TypeORM CLI (`pnpm --filter search migration:generate`): a real PostgreSQL named by
 * DATABASE_URL, the oldest supported version (15), so generated SQL runs everywhere.
 */
const config = loadSearchConfig();
if (!config.DATABASE_URL) {
  throw new Error(
    'DATABASE_URL must name a PostgreSQL 15 database to generate or run migrations with the CLI',
  );
}

export default new DataSource(
  typeOrmOptions({
    url: config.DATABASE_URL,
    singleSession: false,
    poolSize: 2,
    entities: searchEntities,
    migrations: searchMigrations,
    applicationName: 'search-cli',
  }),
);
