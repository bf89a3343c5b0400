import { DataSource } from 'typeorm';
import { migrationCliInput, typeOrmOptions } from '@rt/database';
import { loadSearchConfig } from './config';
import { searchEntities } from './entities';
import { searchMigrations } from './database/migrations';

/** For the TypeORM CLI (`pnpm --filter search migration:generate`): see migrationCliInput. */
export default new DataSource(
  typeOrmOptions(
    migrationCliInput('search', loadSearchConfig().DATABASE_URL, {
      entities: searchEntities,
      migrations: searchMigrations,
    }),
  ),
);
