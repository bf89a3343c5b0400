import type { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';

export interface DatabaseOptionsInput {
  url: string;
  /** The embedded database is one session behind its socket: the pool must hold one connection. */
  singleSession: boolean;
  poolSize: number;
  entities: MixedList<Function | string | EntitySchema>;
  migrations: MixedList<Function | string>;
  applicationName: string;
  /**
   * Server settings of every pooled session, sent at connection start (`-c name=value`), e.g. the
   * search service's `jit: 'off'`. Not sent to the embedded database, which has no such settings.
   */
  sessionSettings?: Record<string, string>;
}

/** libpq's `options` of a pool's sessions: `-c name=value` each. */
export function sessionOptions(settings: Record<string, string> = {}): string | undefined {
  const pairs = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  return pairs.length ? pairs.join(' ') : undefined;
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
      ...(input.singleSession ? {} : { options: sessionOptions(input.sessionSettings) }),
    },
  };
}

/**
 * The input of an app's data source for the TypeORM CLI (`migration:generate`, `migration:check`):
 * a real PostgreSQL named by DATABASE_URL (`url`; the oldest supported version, 15, so generated
 * SQL runs everywhere), a pool of two. Throws without a URL.
 */
export function migrationCliInput(
  app: string,
  url: string | undefined,
  schema: Pick<DatabaseOptionsInput, 'entities' | 'migrations'>,
): DatabaseOptionsInput {
  if (!url) {
    throw new Error(
      'DATABASE_URL must name a PostgreSQL 15 database to generate or run migrations with the CLI',
    );
  }
  return { url, singleSession: false, poolSize: 2, ...schema, applicationName: `${app}-cli` };
}
