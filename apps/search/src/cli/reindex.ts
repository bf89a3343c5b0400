import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { defaultDataDir, migrateDatabase, openDatabase } from '@rt/database';
import { ConfigError } from '@rt/platform';
import { SingleBar } from 'cli-progress';
import { parseArgs } from 'node:util';
import { AppModule } from '../app.module';
import { describeSource } from '../catalogue/catalogue-source';
import { loadSearchConfig } from '../config';
import { SEARCH_EXTENSIONS } from '../database/extensions';
import { searchMigrations } from '../database/migrations';
import { ReindexService } from '../indexes/reindex/reindex.service';

const USAGE = `Usage: pnpm --filter search reindex [--force] [--source <file|url|generated:N>]

Rebuilds the search index in the foreground with a progress bar: the same rebuild as GET /reindex.
  --force           apply even if the source would remove more than REINDEX_MAX_REMOVAL_SHARE of the catalogue
  --source <value>  read this source instead of CATALOGUE_SOURCE
Uses DATABASE_URL, or the embedded database in DATA_DIR (stop the service using it first).`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      force: { type: 'boolean', default: false },
      source: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const env = {
    LOG_LEVEL: 'warn',
    ...process.env,
    ...(values.source ? { CATALOGUE_SOURCE: values.source } : {}),
  };
  const config = { ...loadSearchConfig(env), reindexOnStart: false };
  if (!config.catalogueSource) {
    console.error('No catalogue source: set CATALOGUE_SOURCE or pass --source.');
    return 2;
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR ?? defaultDataDir('search'),
    extensions: SEARCH_EXTENSIONS,
  });
  try {
    // Pending migrations first: the service's start-up checks read the index tables.
    if (config.migrateOnStart) {
      await migrateDatabase(
        { url: database.url, singleSession: database.embedded },
        'search',
        searchMigrations,
      );
    }
    const app = await NestFactory.createApplicationContext(
      AppModule.forRoot({
        config,
        database: { url: database.url, singleSession: database.embedded },
        servesSearches: false,
      }),
      { bufferLogs: true, logger: ['error', 'warn'] },
    );
    try {
      console.log(
        `Reindexing from ${describeSource(config.catalogueSource)}${values.force ? ' (forced)' : ''}`,
      );
      const bar = new SingleBar({
        format:
          ' {bar} {percentage}% | {value}/{total} records | {invalid} invalid | {embedded} embedded | {phase} | {duration_formatted}',
        hideCursor: true,
      });
      let started = false;
      const outcome = await app.get(ReindexService).run('cli', {
        force: values.force,
        onProgress: (progress) => {
          const total = progress.total ?? Math.max(progress.read, 1);
          const payload = { invalid: progress.invalid, embedded: progress.embedded, phase: progress.phase };
          if (!started) {
            bar.start(total, progress.read, payload);
            started = true;
          }
          bar.setTotal(Math.max(total, progress.read));
          bar.update(progress.read, payload);
        },
      });
      if (started) bar.stop();
      if (outcome.status === 'skipped') {
        console.log(`Skipped: ${outcome.reason}.`);
        return 3;
      }
      const { inserted, updated, unchanged, removed, invalid, durationMs } = outcome;
      const counts = `inserted ${inserted}, updated ${updated}, unchanged ${unchanged}, removed ${removed}, invalid ${invalid}`;
      if (outcome.status === 'succeeded') {
        console.log(
          `Done in ${(durationMs / 1000).toFixed(1)} s: ${counts}; ${outcome.total} offers in the index.`,
        );
        return 0;
      }
      console.error(`Reindex ${outcome.status}: ${outcome.error}\n(${counts}; nothing was changed)`);
      return 1;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
