import type { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';

export interface DatabaseOptionsInput {
  url: string;
  /** The embedded database is one session behind its socket: the pool must hold one connection. */
  singleSession: boolean;
  poolSize: number;
  entities: MixedList<Function | string | EntitySchema>;
  migrations: MixedList<Function | string>;
  applicationName: string;
}

/** The TypeORM options of both services. `synchronize` is off: the schema comes from migrations. */
export function typeOrmOptions(input: DatabaseOptionsInput): DataSourceOptions {
  return {
    type: 'postgres',
    url: input.url,
    entities: input.entities,
    migrations: input.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    // TypeORM's console logger prints a failed query with its parameters, outside the JSON log.
    // A failed query throws; whoever catches it logs it once, through the redacting serializer.
    logging: false,
    applicationName: input.applicationName,
    extra: {
      max: input.singleSession ? 1 : input.poolSize,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: input.singleSession ? 0 : 30_000,
    },
  };
}
