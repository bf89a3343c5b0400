import { Index, connect, makeArrowTable } from '@lancedb/lancedb';
import { Bool, Field, List, Schema, Utf8 } from 'apache-arrow';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateCatalogue, parseGeneratedSource } from '../catalogue/catalogue-generator';
import { embeddingTextOf, toIndexedOffer } from '../catalogue/catalogue-record';
import type { CatalogueRecord } from '../catalogue/catalogue-record';
import { RecordValidator } from '../catalogue/record-validator';

/**
 * A peer for `pnpm bench:search`: LanceDB's native full-text index (`@lancedb/lancedb`, in
 * process) answering the typed searches over the same offers, so that the bench prints its
 * figures beside ours.
 *
 * - One text column, the text the service embeds (`embeddingTextOf`: name, destination name,
 *   category names, description), with an FTS index: the simple tokenizer (splits on whitespace and
 *   punctuation), lower case, ASCII folding (randonnée = randonnee, Zürich = Zurich), no stemming
 *   and no stop words (the text mixes French, German and English, and LanceDB stems for one
 *   language), no positions (no phrase queries are sent). The query is the plain search string
 *   (LanceDB's match query, terms combined with OR, BM25), no fuzziness: typos find only what they
 *   spell.
 * - The filters as a `where` prefilter on scalar-indexed columns, with the service's meaning:
 *   destination (bitmap), category (any of the slugs: label list), seaside and discountclub
 *   (true/false, bitmap), hide_invalid (is_valid, bitmap), dates (a departure on any day of any
 *   range: the ranges are expanded to their days and matched against the label list of each
 *   offer's departure days, exact as long as a search's ranges hold at most MAX_FILTER_DAYS days;
 *   past that only the first MAX_FILTER_DAYS days are matched). Ordering, paging and the other
 *   query parameters are not applied: limit 8, best BM25 score first.
 */
export interface LanceDbPeerResult {
  /** Writing the offers into a LanceDB table (Arrow conversion included). */
  writeSeconds: number;
  /** Building the FTS index and the scalar indexes of the filtered columns. */
  indexSeconds: number;
  p50: number;
  p95: number;
  p99: number;
  /** Timed searches (rounds × searches, less the first one: a warm-up, as the bench's own). */
  searches: number;
  /** Typed searches (of `searches.length`, first round) that found no offer. */
  zeroResults: number;
  /** Their `search` strings. */
  zeroResultSearches: string[];
  /** Offers in the table. */
  offers: number;
}

/** The date filter's days beyond which it is approximated (see above). */
export const MAX_FILTER_DAYS = 1_000;
const LIMIT = 8;

/**
 * The offers the bench's reindex holds for `generated:<count>` (CATALOGUE_SOURCE): the same
 * generator, count and seed, the records that pass the catalogue validation.
 */
export function benchOffers(count: number): CatalogueRecord[] {
  const options = parseGeneratedSource(`generated:${count}`);
  if (!options) throw new Error(`not a generated catalogue size: ${count}`);
  const validator = new RecordValidator();
  const records: CatalogueRecord[] = [];
  for (const record of generateCatalogue(options)) if (validator.check(record).ok) records.push(record);
  return records;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const list = (name: string) => new Field(name, new List(new Field('item', new Utf8(), true)), false);
const SCHEMA = new Schema([
  new Field('id', new Utf8(), false),
  new Field('text', new Utf8(), false),
  new Field('destination_code', new Utf8(), true),
  list('categories'),
  list('departure_days'),
  new Field('seaside', new Bool(), false),
  new Field('discount_club', new Bool(), false),
  new Field('is_valid', new Bool(), false),
]);

function rowOf(record: CatalogueRecord): Record<string, unknown> {
  const offer = toIndexedOffer(record);
  return {
    id: offer.id,
    text: embeddingTextOf(offer),
    destination_code: offer.destinationCode,
    categories: offer.categories,
    departure_days: [...new Set(offer.departureDates.map((departure) => departure.slice(0, 10)))],
    seaside: offer.seaside,
    discount_club: offer.discountClub,
    is_valid: offer.isValid,
  };
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const stringList = (values: string[]) => `[${values.map(literal).join(', ')}]`;
const bool = (value: string | undefined) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : undefined;

/** The days (`YYYY-MM-DD`) of `from_to` ranges separated by commas, at most MAX_FILTER_DAYS. */
function daysOf(dates: string): string[] {
  const days = new Set<string>();
  for (const range of dates.split(',')) {
    const [from, to] = range.trim().split('_');
    const end = Date.parse(`${to}T00:00:00Z`);
    for (
      let day = Date.parse(`${from}T00:00:00Z`);
      day <= end && days.size < MAX_FILTER_DAYS;
      day += 86_400_000
    ) {
      days.add(new Date(day).toISOString().slice(0, 10));
    }
  }
  return [...days];
}

/** The search's filters as a LanceDB (DataFusion SQL) predicate; undefined without filters. */
export function whereOf(query: Record<string, string>): string | undefined {
  const conditions: string[] = [];
  if (query.destination) conditions.push(`destination_code = ${literal(query.destination.toUpperCase())}`);
  const categories = (query.category ?? '')
    .split(',')
    .map((slug) => slug.trim())
    .filter(Boolean);
  if (categories.length) conditions.push(`array_has_any(categories, ${stringList(categories)})`);
  if (query.dates) conditions.push(`array_has_any(departure_days, ${stringList(daysOf(query.dates))})`);
  if (bool(query.hide_invalid) === true) conditions.push('is_valid = true');
  for (const [parameter, column] of [
    ['discountclub', 'discount_club'],
    ['seaside', 'seaside'],
  ] as const) {
    const value = bool(query[parameter]);
    if (value !== undefined) conditions.push(`${column} = ${value}`);
  }
  return conditions.length ? conditions.join(' AND ') : undefined;
}

/**
 * Writes `offers` into a LanceDB table in a temporary directory (removed afterwards), builds its
 * indexes, then runs each search of `searches` `rounds` times, one at a time, timing each.
 */
export async function measureLanceDbPeer(
  offers: CatalogueRecord[],
  searches: Record<string, string>[],
  rounds: number,
): Promise<LanceDbPeerResult> {
  const directory = await mkdtemp(join(tmpdir(), 'lancedb-peer-'));
  const db = await connect(directory);
  try {
    let started = performance.now();
    const table = await db.createTable('offers', makeArrowTable(offers.map(rowOf), { schema: SCHEMA }));
    const writeSeconds = (performance.now() - started) / 1000;
    try {
      started = performance.now();
      await table.createIndex('text', {
        config: Index.fts({
          baseTokenizer: 'simple',
          lowercase: true,
          asciiFolding: true,
          stem: false,
          removeStopWords: false,
          withPosition: false,
        }),
      });
      for (const column of ['destination_code', 'seaside', 'discount_club', 'is_valid']) {
        await table.createIndex(column, { config: Index.bitmap() });
      }
      for (const column of ['categories', 'departure_days']) {
        await table.createIndex(column, { config: Index.labelList() });
      }
      const indexSeconds = (performance.now() - started) / 1000;

      const prepared = searches.map((query) => ({ query, where: whereOf(query) }));
      const samples: number[] = [];
      const zeroResultSearches: string[] = [];
      let first = true;
      for (let round = 0; round < rounds; round++) {
        for (const { query, where } of prepared) {
          let search = table.query().fullTextSearch(query.search).select(['id', '_score']).limit(LIMIT);
          if (where) search = search.where(where);
          const began = performance.now();
          const rows = await search.toArray();
          const took = performance.now() - began;
          if (round === 0 && rows.length === 0) zeroResultSearches.push(query.search);
          if (first)
            first = false; // warm-up
          else samples.push(took);
        }
      }
      const sorted = samples.sort((a, b) => a - b);
      return {
        writeSeconds,
        indexSeconds,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        searches: samples.length,
        zeroResults: zeroResultSearches.length,
        zeroResultSearches,
        offers: offers.length,
      };
    } finally {
      table.close();
    }
  } finally {
    db.close();
    await rm(directory, { recursive: true, force: true });
  }
}
