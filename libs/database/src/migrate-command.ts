import { migrateDatabase, type AppDatabaseSpec } from './app-process';
import { openDatabase } from './open-database';

export interface MigrateCommandOptions extends AppDatabaseSpec {
  migrations: Function[];
}

/**
 * `pnpm --filter <app> migration:run`, also the deploy step (a Kubernetes Job) that runs before a
 * new version starts: applies pending migrations to DATABASE_URL, or to the embedded database.
 */
export async function runMigrateCommand(options: MigrateCommandOptions): Promise<void> {
  const database = await openDatabase(options);
  try {
    const applied = await migrateDatabase(
      { url: database.url, singleSession: database.embedded },
      options.app,
      options.migrations,
    );
    console.log(
      applied.length === 0
        ? `[migrate] ${options.app}: up to date`
        : `[migrate] ${options.app}: applied ${applied.map((migration) => migration.name).join(', ')}`,
    );
  } finally {
    await database.close();
  }
}
