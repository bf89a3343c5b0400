import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { generateOffer } from '../catalogue/catalogue-generator';
import { toIndexedOffer } from '../catalogue/catalogue-record';
import { departureDaysMultirange } from '../catalogue/date-ranges';
import { filterRequestOf } from '../cli/query-statements';
import { loadSearchConfig } from '../config';
import { countFilterListing } from '../indexes/text-index/offer-facets';
import { OfferFilterColumnsBuilder } from '../indexes/text-index/offer-filters';
import type { OfferFilterColumns } from '../indexes/text-index/offer-filters';
import type { FacetCounts } from '../request/listing-facets';
import { FACET_FIELDS } from '../request/listing-facets';
import { filterListingSql, filterPageAtGenerationSql } from '../sql/filter-listing';
import { latencyStats } from './latency-stats';
import { sqlFacetListing } from './facet-count-statement';

/**
 * The cost of a filter-only listing's facets (docs/benchmarks.md, "Facets of filter-only
 * listings"), in process, without the HTTP service and without embeddings: per catalogue size
 * (BENCH_FACETS_OFFERS, default 100,000 and 1,000,000 generated offers), a `travel_offers` table
 * holding the columns the filter-only statements read (filled from the generated catalogue as the
 * reindex maps it, with the migration's filter indexes, in the database BENCH_DATABASE), and the
 * in-memory filter columns a replica loads (read back from that table in id order, as the loader
 * reads them). Per filter set, all four facet fields, `infoDensity=min`, 8 offers a page, and
 * BENCH_ROUNDS rounds on one connection, interleaved:
 * - before: the one statement that counted the total and the facets in PostgreSQL
 *   (bench/facet-count-statement.ts);
 * - after: the total and facets counted from the columns (countFilterListing) plus the statement
 *   the service now runs (the page and the generation);
 * - the count in memory alone, and the listing without facets (page and total) for reference.
 * Before and after are checked to count alike (else it stops). Prints Markdown rows.
 * Usage: `pnpm --filter search bench:facets`.
 */
const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = env.BENCH_DATABASE ?? 'search_bench_facets';
const SIZES = (env.BENCH_FACETS_OFFERS ?? '100000,1000000').split(',').map(Number);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 9);
const KEEP = env.BENCH_KEEP_DATABASE === '1';
/** The bound of the bounded rows (SEARCH_TOTAL_EXACT_LIMIT). */
const BOUND = 10_000;
const BATCH = 10_000;

const FIXED_ENV = { APP_ENV: 'local', EMBEDDING_PROVIDER: 'builtin' };
const CASES: { label: string; query: Record<string, string>; bounded?: boolean }[] = [
  { label: 'none', query: {} },
  { label: 'category=beach', query: { category: 'beach' } },
  { label: 'destination=GR', query: { destination: 'GR' } },
  {
    label: 'dates (one month), hide_invalid, discountclub',
    query: { dates: '2027-03-01_2027-03-31', hide_invalid: 'true', discountclub: 'true' },
  },
  { label: 'category=ski, orderBy=rating', query: { category: 'ski', orderBy: 'rating' } },
  { label: `none, bounded at ${BOUND.toLocaleString('en')}`, query: {}, bounded: true },
];

async function main(): Promise<void> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DATABASE}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  const unbounded = loadSearchConfig(FIXED_ENV);
  const bounded = loadSearchConfig({ ...FIXED_ENV, SEARCH_TOTAL_EXACT_LIMIT: String(BOUND) });
  try {
    console.log(`${ROUNDS} rounds per figure, one connection; p50 / p95 in ms`);
    console.log(
      '| offers | filters | total | SQL count (before) | memory count + page statement (after) | memory count alone | listing without facets |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const size of SIZES) {
      const started = performance.now();
      await fill(client, size);
      const columns = await columnsOf(client);
      console.error(
        `${size} offers filled and loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      for (const { label, query, bounded: isBounded } of CASES) {
        const request = filterRequestOf(
          { ...query, facets: FACET_FIELDS.join(','), infoDensity: 'min' },
          isBounded ? bounded : unbounded,
        );
        const before = () =>
          client.query(
            sqlFacetListing(request, FACET_FIELDS).text,
            sqlFacetListing(request, FACET_FIELDS).values,
          );
        const after = async () => {
          const counted = countFilterListing(columns, request.filters, FACET_FIELDS, request.countLimit);
          const page = filterPageAtGenerationSql(request);
          await client.query(page.text, page.values);
          return counted;
        };
        const plain = filterListingSql({ ...request, facets: undefined });
        const total = checkAlike(label, (await before()).rows[0], await after());
        const samples = {
          before: [] as number[],
          after: [] as number[],
          memory: [] as number[],
          plain: [] as number[],
        };
        for (let round = 0; round < ROUNDS + 1; round++) {
          const times = {
            before: await timed(before),
            after: await timed(after),
            memory: await timed(async () =>
              countFilterListing(columns, request.filters, FACET_FIELDS, request.countLimit),
            ),
            plain: await timed(() => client.query(plain.text, plain.values)),
          };
          if (round === 0) continue; // warm-up
          for (const key of Object.keys(samples) as (keyof typeof samples)[]) samples[key].push(times[key]);
        }
        console.log(
          `| ${size.toLocaleString('en')} | ${label} | ${total.toLocaleString('en')} | ${pair(samples.before)} | ${pair(samples.after)} | ${pair(samples.memory)} | ${pair(samples.plain)} |`,
        );
      }
    }
  } finally {
    await client.end();
    if (!KEEP) await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await admin.end();
  }
}

/** `travel_offers` with the columns the filter-only statements read, filled with `size` generated offers. */
async function fill(client: Client, size: number): Promise<void> {
  await client.query('DROP TABLE IF EXISTS travel_offers, search_stats');
  await client.query(`CREATE TABLE travel_offers (
    id text COLLATE "C" PRIMARY KEY, name text NOT NULL, slug text NOT NULL, destination_code text,
    categories text[] NOT NULL, departure_days datemultirange NOT NULL, discount_club boolean NOT NULL,
    seaside boolean NOT NULL, is_valid boolean NOT NULL, rating double precision)`);
  await client.query('CREATE TABLE search_stats (generation bigint NOT NULL)');
  await client.query('INSERT INTO search_stats VALUES (1)');
  for (let start = 0; start < size; start += BATCH) {
    const columns: unknown[][] = Array.from({ length: 10 }, () => []);
    for (let index = start; index < Math.min(size, start + BATCH); index++) {
      const offer = toIndexedOffer(generateOffer(index));
      [
        offer.id,
        offer.name,
        offer.slug,
        offer.destinationCode,
        `{${offer.categories.join(',')}}`,
        departureDaysMultirange(offer.departureDates),
        offer.discountClub,
        offer.seaside,
        offer.isValid,
        offer.rating,
      ].forEach((value, i) => columns[i].push(value));
    }
    await client.query(
      `INSERT INTO travel_offers SELECT u.id, u.name, u.slug, u.destination_code, u.categories::text[], u.days::datemultirange,
         u.discount_club, u.seaside, u.is_valid, u.rating
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::boolean[], $9::boolean[], $10::float8[])
         AS u(id, name, slug, destination_code, categories, days, discount_club, seaside, is_valid, rating)`,
      columns,
    );
  }
  // the migration's filter indexes (1763950000000-AddTravelOffers.ts)
  for (const index of [
    'travel_offers_destination_idx ON travel_offers (destination_code, id)',
    'travel_offers_categories_idx ON travel_offers USING gin (categories)',
    'travel_offers_departure_days_idx ON travel_offers USING gist (departure_days)',
    'travel_offers_is_valid_idx ON travel_offers (is_valid, id)',
    'travel_offers_discount_club_idx ON travel_offers (discount_club, id)',
    'travel_offers_seaside_idx ON travel_offers (seaside, id)',
    'travel_offers_rating_asc_idx ON travel_offers (rating ASC NULLS LAST, id)',
  ]) {
    await client.query(`CREATE INDEX ${index}`);
  }
  await client.query('VACUUM ANALYZE travel_offers');
}

/** The filter columns as the text index's loader builds them (text-index.loader.ts), in id order. */
async function columnsOf(client: Client): Promise<OfferFilterColumns> {
  const { rows } = await client.query<{
    destination_code: string | null;
    categories: string[];
    departure_days: string;
    is_valid: boolean;
    discount_club: boolean;
    seaside: boolean;
  }>(
    `SELECT destination_code, categories, departure_days::text AS departure_days, is_valid, discount_club, seaside
       FROM travel_offers ORDER BY id`,
  );
  const builder = new OfferFilterColumnsBuilder();
  for (const row of rows) {
    builder.add({
      destination: row.destination_code,
      categories: row.categories,
      departureDays: row.departure_days,
      isValid: row.is_valid,
      discountClub: row.discount_club,
      seaside: row.seaside,
    });
  }
  return builder.build();
}

/** The SQL count's row and the memory count must agree; returns the total. */
function checkAlike(
  label: string,
  row: {
    total: number;
    facets: Record<string, Record<string, number>>;
    unknown_category: string[];
    unknown_destination: string[];
  },
  counted: { total: number; facets: FacetCounts },
): number {
  const sorted = (values: Record<string, number>) =>
    JSON.stringify(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : 1)));
  const same =
    row.total === counted.total &&
    FACET_FIELDS.every(
      (field) =>
        sorted(row.facets[field] ?? {}) === sorted(Object.fromEntries(counted.facets.counts[field] ?? [])),
    ) &&
    JSON.stringify(row.unknown_category) === JSON.stringify(counted.facets.unknownFilterValues.category) &&
    JSON.stringify(row.unknown_destination) ===
      JSON.stringify(counted.facets.unknownFilterValues.destination);
  if (!same) throw new Error(`${label}: the memory count differs from the SQL count`);
  return row.total;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function pair(samples: number[]): string {
  const { p50, p95 } = latencyStats(samples);
  const shown = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));
  return `${shown(p50)} / ${shown(p95)}`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
