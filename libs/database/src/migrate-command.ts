import { DataSource } from 'typeorm';
import { runMigrationsUnderLock } from './migrations';
import { EmbeddedExtension, openDatabase } from './open-database';
import { typeOrmOptions } from './typeorm-options';

export interface MigrateCommandOptions {
  app: string;
  url?: string;
  dataDir: string;
  extensions: EmbeddedExtension[];
  migrations: Function[];
}

/**
 * `pnpm --filter <app> migration:run`, also the deploy step (a Kubernetes Job) that runs before a
 * new version starts: applies pending migrations to DATABASE_URL, or to the embedded database.
 */
export async function runMigrateCommand(options: MigrateCommandOptions): Promise<void> {
  const database = await openDatabase({ url: options.url, dataDir: options.dataDir, extensions: options.extensions });
  const dataSource = new DataSource(
    typeOrmOptions({
      url: database.url,
      singleSession: database.embedded,
      poolSize: 1,
      entities: [],
      migrations: options.migrations,
      applicationName: `${options.app}-migrate`,
    }),
  );
  try {
    await dataSource.initialize();
    const applied = await runMigrationsUnderLock(dataSource, `${options.app}:migrations`);
    console.log(
      applied.length === 0
        ? `[migrate] ${options.app}: up to date`
        : `[migrate] ${options.app}: applied ${applied.map((migration) => migration.name).join(', ')}`,
    );
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.close();
  }
}
