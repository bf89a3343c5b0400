import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { defaultDataDir, openDatabase, runMigrationsUnderLock } from '@rt/database';
import { closeOnSignals, ConfigError, NEST_APP_OPTIONS } from '@rt/platform';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module';
import { loadSearchConfig } from './config';
import { SEARCH_EXTENSIONS } from './database/extensions';
import { configureSearchHttp } from './http';
import { ReindexService } from './reindex/reindex.service';

async function bootstrap(): Promise<void> {
  const config = loadSearchConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR ?? defaultDataDir('search'),
    extensions: SEARCH_EXTENSIONS,
  });
  const app = await NestFactory.create(
    AppModule.forRoot({ config, database: { url: database.url, singleSession: database.embedded } }),
    NEST_APP_OPTIONS,
  );
  configureSearchHttp(app, config);
  const logger = app.get(Logger);
  closeOnSignals(app, { graceMs: config.SHUTDOWN_GRACE_MS, logger, afterClose: () => database.close() });
  if (database.embedded) logger.log(`Embedded PostgreSQL with its data in ${database.dataDir}`, 'Database');
  if (config.migrateOnStart) {
    const applied = await runMigrationsUnderLock(app.get(DataSource), 'search:migrations');
    logger.log(`Migrations applied: ${applied.length}`, 'Database');
  }
  // Initialising starts the first build of an empty index (ReindexService). A server answers
  // meanwhile (readiness says the index is not built); the embedded database is the local demo, so
  // there the service listens once the index is there, and the first listing already has offers.
  await app.init();
  const reindex = app.get(ReindexService);
  if (database.embedded && reindex.isRunning) {
    logger.log('Building the index before listening (embedded database)…', 'Bootstrap');
    await reindex.idle();
  }
  await app.listen(config.port);
  logger.log(`Search listening on http://localhost:${config.port}`, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
