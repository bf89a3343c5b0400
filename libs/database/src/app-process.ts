import type { INestApplicationContext } from '@nestjs/common';
import { DataSource, Migration } from 'typeorm';
import { runMigrationsUnderLock } from './migrations';
import { EmbeddedExtension, openDatabase, OpenedDatabase } from './open-database';
import { typeOrmOptions } from './typeorm-options';

/** What a process needs to know to reach an app's database. */
export interface AppDatabaseSpec {
  /** `backend` or `search`: names the advisory lock and the connections. */
  app: string;
  /** DATABASE_URL; unset → the embedded database in `dataDir`. */
  url?: string;
  dataDir: string;
  extensions: EmbeddedExtension[];
}

/** The connection the app module is built on. */
export interface AppDatabaseConnection {
  url: string;
  singleSession: boolean;
}

export interface StartedApp<A extends INestApplicationContext> {
  app: A;
  database: OpenedDatabase;
  /** Migrations applied by this start (empty when none were pending or `migrate` was off). */
  applied: Migration[];
  /** Closes the app, then the database (an embedded one stops). */
  close(): Promise<void>;
}

/** Pending migrations of an app, on its own data source, under the app's advisory lock. */
export function migrateApp(dataSource: DataSource, app: string): Promise<Migration[]> {
  return runMigrationsUnderLock(dataSource, `${app}:migrations`);
}

/**
 * Every entry point of an app (the service, its commands, its tools) starts the same way: open the
 * database (a server, or the embedded one), build the app on it, and apply pending migrations
 * under the lock when asked. The caller builds the app (`NestFactory.create` for a server,
 * `createApplicationContext` for a command); a failure on the way closes what was opened.
 */
export async function startApp<A extends INestApplicationContext>(
  spec: AppDatabaseSpec & { migrate: boolean },
  build: (connection: AppDatabaseConnection) => Promise<A>,
): Promise<StartedApp<A>> {
  const database = await openDatabase(spec);
  let app: A | undefined;
  try {
    app = await build({ url: database.url, singleSession: database.embedded });
    const applied = spec.migrate ? await migrateApp(app.get(DataSource), spec.app) : [];
    const started = app;
    return {
      app: started,
      database,
      applied,
      close: async () => {
        try {
          await started.close();
        } finally {
          await database.close();
        }
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close();
    throw error;
  }
}

/**
 * Applies an app's pending migrations through a short-lived data source of its own, for a process
 * that must migrate before it builds the app (the migrate command, the deploy Job).
 */
export async function migrateDatabase(
  connection: AppDatabaseConnection,
  app: string,
  migrations: Function[],
): Promise<Migration[]> {
  const dataSource = new DataSource(
    typeOrmOptions({
      url: connection.url,
      singleSession: connection.singleSession,
      poolSize: 1,
      entities: [],
      migrations,
      applicationName: `${app}-migrate`,
    }),
  );
  await dataSource.initialize();
  try {
    return await migrateApp(dataSource, app);
  } finally {
    await dataSource.destroy();
  }
}
