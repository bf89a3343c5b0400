import { NestFactory } from '@nestjs/core';
import { migrateDatabase, urlOfDatabase, withClient } from '@rt/database';
import { AppModule } from '../app.module';
import { loadSearchConfig } from '../config';
import { searchMigrations } from '../database/migrations';
import { ReindexService } from '../indexes/reindex/reindex.service';

/**
 * How long migration FoldGermanDigraphsOnly takes (D-54): a database migrated to the one before,
 * BENCH_OFFERS (10,000) generated offers reindexed with the built-in provider, then the migration
 * timed (the offers' vectors folded again, the postings marked for the next reindex to rewrite).
 * `node dist/bench/fold-migration-bench.js`; BENCH_DATABASE names the database (dropped first).
 */
const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = env.BENCH_DATABASE ?? 'search_bench_fold';
const OFFERS = Number(env.BENCH_OFFERS ?? 10_000);

async function main(): Promise<void> {
  const url = urlOfDatabase(SERVER_URL, DATABASE);
  await withClient(SERVER_URL, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  });
  const before = searchMigrations.filter(
    (migration) => migration.name !== 'FoldGermanDigraphsOnly1796500000000',
  );
  await migrateDatabase({ url, singleSession: false }, 'search', before);
  const config = {
    ...loadSearchConfig({
      DATABASE_URL: url,
      CATALOGUE_SOURCE: `generated:${OFFERS}`,
      LOG_LEVEL: 'warn',
      APP_ENV: 'local',
    }),
    reindexOnStart: false,
  };
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config, database: { url, singleSession: false }, servesSearches: false }),
    { logger: ['error', 'warn'] },
  );
  try {
    let started = performance.now();
    const outcome = await app.get(ReindexService).run('cli');
    if (outcome.status !== 'succeeded') throw new Error(`reindex: ${JSON.stringify(outcome)}`);
    console.log(`reindex of ${OFFERS} offers: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await app.close();
    started = performance.now();
    await migrateDatabase({ url, singleSession: false }, 'search', searchMigrations);
    console.log(
      `FoldGermanDigraphsOnly at ${OFFERS} offers: ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await app.close().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
