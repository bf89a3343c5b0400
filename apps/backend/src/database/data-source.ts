import { DataSource } from 'typeorm';
import { migrationCliInput } from '@rt/database';
import { backendTypeOrmOptions } from './typeorm';
import { loadBackendConfig } from '../config';
import { backendEntities } from '../entities';
import { backendMigrations } from './migrations';

/** For the TypeORM CLI (`pnpm --filter backend migration:generate`): see migrationCliInput. */
export default new DataSource(
  backendTypeOrmOptions(
    migrationCliInput('backend', loadBackendConfig().DATABASE_URL, {
      entities: backendEntities,
      migrations: backendMigrations,
    }),
  ),
);
