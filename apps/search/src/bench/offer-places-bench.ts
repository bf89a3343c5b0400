import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { migrateDatabase, urlOfDatabase, withClient } from '@rt/database';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { loadSearchConfig } from '../config';
import { searchMigrations } from '../database/migrations';
import { loadOfferPlacer } from '../indexes/reindex/offer-placer';
import { refreshOfferPlaces } from '../indexes/reindex/reindex.repository';
import { ReindexService } from '../indexes/reindex/reindex.service';
import { OFFER_PLACES_SQL, OFFER_POINTS_SQL } from '../indexes/text-index/offer-places';
import { loadTextIndex } from '../indexes/text-index/text-index.loader';
import type { TextIndex } from '../indexes/text-index/text-index';

/**
 * What placing every offer costs (issue 62; docs/benchmarks.md, "Every offer placed"): on
 * BENCH_OFFERS generated offers (10,000 by default) in BENCH_DATABASE, the full and the unchanged
 * reindex, a places-only rebuild (another gazetteer version), the placer alone, the table's size,
 * the load of the text index with and without the places, and the places' memory on a replica.
 * `BENCH_SKIP_REINDEX=1` reuses the database as it is. Run with `node --expose-gc`.
 */
const { env } = process;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = env.BENCH_DATABASE ?? 'search_bench_places';
const OFFERS = Number(env.BENCH_OFFERS ?? 10_000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 5);
/**
 * BENCH_SCALE=10: then copies the offers (ids after every generated one, so the postings' ordinals
 * hold) until the catalogue is 10 times larger, places them all and measures again: the places'
 * part at 100,000 offers without a reindex of 100,000 (the copies hold no postings).
 */
const SCALE = Number(env.BENCH_SCALE ?? 1);
const databaseUrl = urlOfDatabase(SERVER_URL, DATABASE);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const gc = () => (global as { gc?: () => void }).gc?.();

async function timedReindexes(labels: string[], before: Record<string, string> = {}): Promise<void> {
  const config = {
    ...loadSearchConfig({
      DATABASE_URL: databaseUrl,
      CATALOGUE_SOURCE: `generated:${OFFERS}`,
      LOG_LEVEL: 'warn',
      APP_ENV: 'local',
    }),
    reindexOnStart: false,
  };
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({
      config,
      database: { url: databaseUrl, singleSession: false },
      servesSearches: false,
    }),
    { logger: ['error', 'warn'] },
  );
  try {
    const dataSource = app.get(DataSource);
    for (const label of labels) {
      if (before[label]) await dataSource.query(before[label]);
      const started = performance.now();
      const outcome = await app.get(ReindexService).run('cli');
      if (outcome.status !== 'succeeded') throw new Error(`${label} reindex: ${JSON.stringify(outcome)}`);
      console.log(`| reindex, ${label} | ${((performance.now() - started) / 1000).toFixed(2)} s |`);
    }
  } finally {
    await app.close();
  }
}

function placesBytes(index: TextIndex): number {
  const { pointStart, lat, lon, placeStart, places, placeIds } = index.places;
  let bytes = 0;
  for (const array of [pointStart, lat, lon, placeStart, places]) bytes += array.byteLength;
  for (const id of placeIds) bytes += 16 + id.length;
  return bytes;
}

/** Copies the generated offers SCALE - 1 times under ids sorting after them (`zz<k>-<id>`). */
async function scaleCatalogue(dataSource: DataSource): Promise<void> {
  const columns = (
    (await dataSource.query(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_name = 'travel_offers' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    )) as { name: string }[]
  ).map((column) => column.name);
  for (let k = 1; k < SCALE; k++) {
    const values = columns.map((column) =>
      column === 'id' || column === 'slug' ? `'zz${k}-' || ${column}` : column,
    );
    await dataSource.query(
      `INSERT INTO travel_offers (${columns.join(', ')}) SELECT ${values.join(', ')} FROM travel_offers WHERE id NOT LIKE 'zz%'`,
    );
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const started = performance.now();
    await refreshOfferPlaces(runner, loadOfferPlacer(), 'all', false);
    const ms = performance.now() - started;
    await runner.commitTransaction();
    console.log(
      `| places every offer (refreshOfferPlaces, 'all'), ${OFFERS * SCALE} offers | ${(ms / 1000).toFixed(2)} s |`,
    );
  } finally {
    await runner.release();
  }
  await dataSource.query('VACUUM ANALYZE travel_offers, search_offer_places');
}

async function main(): Promise<void> {
  console.log(`offer places, ${OFFERS} offers, database ${DATABASE}\n\n| step | figure |\n|---|---|`);
  if (env.BENCH_SKIP_REINDEX !== '1') {
    await withClient(SERVER_URL, async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${DATABASE}`);
    });
    await migrateDatabase({ url: databaseUrl, singleSession: false }, 'search', searchMigrations);
    await timedReindexes(['full', 'unchanged']);
  }
  await timedReindexes(['unchanged', 'places only (another gazetteer version)'], {
    'places only (another gazetteer version)': "UPDATE search_stats SET places_version = 'bench-stale'",
  });
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl });
  await dataSource.initialize();
  try {
    await measure(dataSource);
    if (SCALE > 1) {
      console.log(`\n${OFFERS * SCALE} offers (the copies hold no postings)\n\n| step | figure |\n|---|---|`);
      await scaleCatalogue(dataSource);
      await measure(dataSource);
    }
  } finally {
    await dataSource.destroy();
  }
}

async function measure(dataSource: DataSource): Promise<void> {
  {
    const [size] = (await dataSource.query(
      `SELECT pg_total_relation_size('search_offer_places')::bigint AS bytes, count(*)::int AS offers,
         coalesce(avg(cardinality(places)), 0)::float8 AS places, coalesce(sum(length(points)) / 8, 0)::int AS points,
         count(*) FILTER (WHERE length(points) > 0)::int AS pointed,
         (SELECT count(*)::int FROM travel_offers) AS catalogue,
         pg_total_relation_size('search_posting_blocks')::bigint AS blocks
       FROM search_offer_places`,
    )) as Record<string, number>[];
    console.log(
      `| search_offer_places | ${(Number(size.bytes) / 1048576).toFixed(2)} MiB (posting blocks ${(Number(size.blocks) / 1048576).toFixed(1)} MiB); ${size.offers} of ${size.catalogue} offers placed, ${size.places.toFixed(2)} places an offer, ${size.points} points on ${size.pointed} offers |`,
    );
    const offers = (await dataSource.query(
      `SELECT name, description, destination_code, destination_name, record ->> 'language' AS language FROM travel_offers`,
    )) as Record<string, string | null>[];
    const loadStarted = performance.now();
    const placer = loadOfferPlacer();
    const loadMs = performance.now() - loadStarted;
    const placeStarted = performance.now();
    for (const offer of offers)
      placer.place({
        name: offer.name ?? '',
        description: offer.description,
        destinationCode: offer.destination_code,
        destinationName: offer.destination_name,
        language: offer.language,
      });
    console.log(
      `| placer: load / place every offer | ${loadMs.toFixed(0)} ms / ${(performance.now() - placeStarted).toFixed(0)} ms |`,
    );
    for (const [label, sql] of [
      ['places statement alone', OFFER_PLACES_SQL],
      ['points statement alone', OFFER_POINTS_SQL],
    ]) {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const started = performance.now();
        await dataSource.query(sql);
        times.push(performance.now() - started);
      }
      console.log(`| ${label} (median of ${ROUNDS}) | ${median(times).toFixed(1)} ms |`);
    }
    const loads = async (label: string) => {
      const times: number[] = [];
      let index: TextIndex | undefined;
      for (let i = 0; i < ROUNDS; i++) {
        index = undefined;
        gc();
        const { index: loaded, milliseconds, withPlaces } = await loadTextIndex(dataSource);
        index = loaded;
        times.push(milliseconds);
        if (i === 0) console.log(`| ${label}: places read | ${withPlaces} |`);
      }
      gc();
      const memory = process.memoryUsage();
      console.log(
        `| ${label}: load (median of ${ROUNDS}) | ${median(times).toFixed(0)} ms; index.bytes ${(index!.bytes / 1048576).toFixed(2)} MiB, places ${(placesBytes(index!) / 1048576).toFixed(2)} MiB; heap ${(memory.heapUsed / 1048576).toFixed(1)} MiB, array buffers ${(memory.arrayBuffers / 1048576).toFixed(1)} MiB |`,
      );
      return index;
    };
    let held = await loads('with places');
    const [{ generation }] = (await dataSource.query(
      'SELECT places_generation::text AS generation FROM search_stats',
    )) as { generation: string }[];
    await dataSource.query('UPDATE search_stats SET places_generation = NULL');
    try {
      held = undefined;
      held = await loads('without places');
    } finally {
      await dataSource.query('UPDATE search_stats SET places_generation = $1', [generation]);
    }
    void held;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
