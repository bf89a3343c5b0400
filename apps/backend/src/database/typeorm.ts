import type { DataSourceOptions } from 'typeorm';
import { DatabaseOptionsInput, typeOrmOptions } from '@rt/database';

/**
 * The shared TypeORM options, plus: generated UUID keys use `gen_random_uuid()` (core since
 * PostgreSQL 13) and TypeORM never tries `CREATE EXTENSION` at connection time (the schema,
 * extensions included, comes from migrations).
 */
export function backendTypeOrmOptions(input: DatabaseOptionsInput): DataSourceOptions {
  return {
    ...typeOrmOptions(input),
    uuidExtension: 'pgcrypto',
    installExtensions: false,
  } as DataSourceOptions;
}
