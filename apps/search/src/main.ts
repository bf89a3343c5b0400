// Tracing first: its instrumentations must see http and pg loaded.
import { tracing } from './tracing';
import 'reflect-metadata';
import { defaultDataDir, startApp } from '@rt/database';
import { httpAppOn, listeningOrigin, runEntryPoint, serveStarted } from '@rt/platform';
import { AppModule } from './app.module';
import { loadSearchConfig } from './config';
import { SEARCH_EXTENSIONS } from './database/extensions';
import { configureSearchHttp } from './http/configure-http';
import { ReindexService } from './indexes/reindex/reindex.service';

async function bootstrap(): Promise<void> {
  const config = loadSearchConfig();
  const started = await startApp(
    {
      app: 'search',
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR ?? defaultDataDir('search'),
      extensions: SEARCH_EXTENSIONS,
      migrate: config.migrateOnStart,
    },
    httpAppOn(
      (database) => AppModule.forRoot({ config, database }),
      (app) => configureSearchHttp(app, config),
    ),
  );
  const { app, database } = started;
  const logger = serveStarted(started, {
    graceMs: config.SHUTDOWN_GRACE_MS,
    migrated: config.migrateOnStart,
    flush: () => tracing.shutdown(),
  });
  // Initialising starts the first build of an empty index (ReindexService). A server answers
  // meanwhile (readiness says the index is not built); the embedded database is the local demo, so
  // there the service listens once the index is there, and the first listing already has offers.
  await app.init();
  const reindex = app.get(ReindexService);
  if (database.embedded && reindex.isRunning) {
    logger.log('Building the index before listening (embedded database)…', 'Bootstrap');
    await reindex.idle();
  }
  await app.listen(config.port, config.HOST);
  logger.log(`Search listening on ${listeningOrigin(config.HOST, config.port)}`, 'Bootstrap');
}

runEntryPoint(bootstrap);
