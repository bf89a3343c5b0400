// Tracing first: its instrumentations must see http and pg loaded.
import { tracing } from './tracing';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { defaultDataDir, startApp } from '@rt/database';
import { closeOnSignals, ConfigError, NEST_APP_OPTIONS } from '@rt/platform';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { loadSearchConfig } from './config';
import { SEARCH_EXTENSIONS } from './database/extensions';
import { configureSearchHttp } from './http';
import { ReindexService } from './reindex/reindex.service';

async function bootstrap(): Promise<void> {
  const config = loadSearchConfig();
  const { app, database, applied } = await startApp(
    {
      app: 'search',
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR ?? defaultDataDir('search'),
      extensions: SEARCH_EXTENSIONS,
      migrate: config.migrateOnStart,
    },
    async (connection) => {
      const created = await NestFactory.create<NestExpressApplication>(
        AppModule.forRoot({ config, database: connection }),
        NEST_APP_OPTIONS,
      );
      configureSearchHttp(created, config);
      return created;
    },
  );
  const logger = app.get(Logger);
  closeOnSignals(app, {
    graceMs: config.SHUTDOWN_GRACE_MS,
    logger,
    afterClose: () => database.close(),
    flush: () => tracing.shutdown(),
  });
  if (database.embedded) logger.log(`Embedded PostgreSQL with its data in ${database.dataDir}`, 'Database');
  if (config.migrateOnStart) logger.log(`Migrations applied: ${applied.length}`, 'Database');
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
