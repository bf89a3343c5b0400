import './lancedb-log';
import { Index, connect, makeArrowTable, rerankers } from '@lancedb/lancedb';
import type { Table } from '@lancedb/lancedb';
import { Bool, Field, FixedSizeList, Float32, List, Schema, Utf8 } from 'apache-arrow';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateCatalogue, parseGeneratedSource } from '../catalogue/catalogue-generator';
import { embeddingTextOf, toIndexedOffer } from '../catalogue/catalogue-record';
import type { CatalogueRecord } from '../catalogue/catalogue-record';
import { RecordValidator } from '../catalogue/record-validator';
import { latencyStats } from './latency-stats';

/**
 * The peer of `pnpm bench:search`: LanceDB (`@lancedb/lancedb`, in process) answering the typed
 * searches over the same offers and the same stored vectors, twice: as a complete hybrid engine
 * (HNSW over the vectors + its full-text index, fused by RRF) and by its full-text index alone,
 * so that the bench prints both beside ours.
 *
 * - One text column, the text the service embeds (`embeddingTextOf`: name, destination name,
 *   category names, description), with an FTS index: the simple tokenizer (splits on whitespace and
 *   punctuation), lower case, ASCII folding (randonnée = randonnee, Zürich = Zurich), no stemming
 *   and no stop words (the text mixes French, German and English, and LanceDB stems for one
 *   language), no positions (no phrase queries are sent). The query is the plain search string
 *   (LanceDB's match query, terms combined with OR, BM25), no fuzziness: typos find only what they
 *   spell.
 * - One vector column holding the service's stored vectors (`travel_offers.embedding`, read by the
 *   bench as a replica loads them: `vectors`, matched to the offers by id), with an HNSW index of
 *   cosine distance: `Index.hnswSq` (one partition, M 20, ef_construction 300: LanceDB's defaults).
 *   SQ rather than PQ: scalar quantization keeps one byte per dimension (384 bytes an offer), as
 *   the service's int8 vectors do, where PQ's 24 sub-vectors of 16 dimensions (LanceDB's default at
 *   384) keep 24 bytes an offer and lose most of the distance between the built-in provider's
 *   hashed n-gram vectors, which are nearly orthogonal; SQ is the variant that competes on recall.
 *   Its build time is reported apart (`vectorIndexSeconds`).
 * - A hybrid search is `nearestTo(query vector)` (cosine, ef `options.ef`) + `fullTextSearch(search)`,
 *   fused by LanceDB's `RRFReranker` (k 60), limit 8: LanceDB takes the 8 best of each side and
 *   fuses them. The query vector is the service's query embedding (`builtin.embedQuery(search)`),
 *   computed by the caller before any timing: what is compared is the search, not the embedding
 *   (the service caches its query embeddings too).
 * - The filters as a `where` prefilter (both sides of a hybrid search) on scalar-indexed columns,
 *   with the service's meaning: destination (bitmap), category (any of the slugs: label list),
 *   seaside and discountclub (true/false, bitmap), hide_invalid (is_valid, bitmap), dates (a
 *   departure on any day of any range: the ranges are expanded to their days and matched against
 *   the label list of each offer's departure days, exact as long as a search's ranges hold at most
 *   MAX_FILTER_DAYS days; past that only the first MAX_FILTER_DAYS days are matched). Ordering,
 *   paging and the other query parameters are not applied: limit 8, best first.
 */
export interface PeerTimings {
  p50: number;
  p95: number;
  p99: number;
  /** Timed searches (rounds × searches, less the first one: a warm-up, as the bench's own). */
  searches: number;
  /** Typed searches (of `searches.length`, first round) that found no offer. */
  zeroResults: number;
  /** Their `search` strings. */
  zeroResultSearches: string[];
}

/** The stored vectors, by ordinal, and the offers' ids by ordinal (as the bench's vector load reads them). */
export interface PeerVectors {
  ids: readonly string[];
  dimension: number;
  /** `dimension` values per ordinal. */
  values: Float32Array;
}

export interface PeerOptions {
  /** HNSW's candidate list at search time (LanceDB's `ef`; its default is 1.5 × limit). */
  ef: number;
}

export interface LanceDbPeerResult {
  /** Writing the offers into a LanceDB table (Arrow conversion included). */
  writeSeconds: number;
  /** Building the FTS index and the scalar indexes of the filtered columns. */
  indexSeconds: number;
  /** Building the HNSW index of the vectors. */
  vectorIndexSeconds: number;
  /** The full-text index alone. */
  fts: PeerTimings;
  /** HNSW + full text + RRF (`rerankers.RRFReranker`, k 60). */
  hybrid: PeerTimings;
  /**
   * The same hybrid search without `.rerank(…)`: LanceDB's default fusion, RRF with k 60 as well,
   * run natively, where the explicit reranker is a JavaScript callback that passes both sides'
   * results through Arrow IPC on the event loop.
   */
  hybridNative: PeerTimings;
  /**
   * The HNSW side's recall@8 against LanceDB's exact search (`bypassVectorIndex`) under the same
   * prefilter, averaged over the typed searches (first round, untimed).
   */
  vectorRecall: number;
  /** Offers in the table. */
  offers: number;
  /** The search-time ef used. */
  ef: number;
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

const list = (name: string) => new Field(name, new List(new Field('item', new Utf8(), true)), false);
/** Rows written to the peer's table at a time. */
const ROWS_PER_WRITE = 50_000;

const schemaOf = (dimension: number) =>
  new Schema([
    new Field('id', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
    new Field('destination_code', new Utf8(), true),
    list('categories'),
    list('departure_days'),
    new Field('seaside', new Bool(), false),
    new Field('discount_club', new Bool(), false),
    new Field('is_valid', new Bool(), false),
  ]);

function rowOf(
  record: CatalogueRecord,
  vectors: PeerVectors,
  ordinals: Map<string, number>,
): Record<string, unknown> {
  const offer = toIndexedOffer(record);
  const ordinal = ordinals.get(offer.id);
  if (ordinal === undefined) throw new Error(`offer ${offer.id} has no stored vector`);
  const { dimension, values } = vectors;
  return {
    id: offer.id,
    // a view, not a copy: makeArrowTable copies it into the column (3× faster than a number[])
    vector: values.subarray(ordinal * dimension, (ordinal + 1) * dimension),
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

const timingsOf = (samples: number[], zeroResultSearches: string[]): PeerTimings => {
  const { p50, p95, p99, n } = latencyStats(samples);
  return {
    p50,
    p95,
    p99,
    searches: n,
    zeroResults: zeroResultSearches.length,
    zeroResultSearches,
  };
};

/**
 * Writes `offers` with their stored vectors (`vectors`) into a LanceDB table in a temporary
 * directory (removed afterwards), builds its indexes, then runs each search of `searches`
 * `rounds` times, one at a time, by the full-text index alone and as a hybrid search, with the
 * explicit RRF reranker and with LanceDB's default (native) fusion (the query vector of search i is
 * `queryVectors[i]`), timing each (the order of the three rotates).
 */
export async function measureLanceDbPeer(
  offers: CatalogueRecord[],
  vectors: PeerVectors,
  searches: Record<string, string>[],
  queryVectors: Float32Array[],
  rounds: number,
  options: PeerOptions,
): Promise<LanceDbPeerResult> {
  const directory = await mkdtemp(join(tmpdir(), 'lancedb-peer-'));
  const db = await connect(directory);
  try {
    const ordinals = new Map(vectors.ids.map((id, ordinal) => [id, ordinal]));
    let started = performance.now();
    const schema = schemaOf(vectors.dimension);
    // in batches: one Arrow table of every row held 1,000,000 objects and their copy at once (the
    // bench process was killed for memory at 1,000,000 offers)
    const batch = (from: number) =>
      makeArrowTable(
        offers.slice(from, from + ROWS_PER_WRITE).map((offer) => rowOf(offer, vectors, ordinals)),
        { schema },
      );
    const table = await db.createTable('offers', batch(0));
    for (let from = ROWS_PER_WRITE; from < offers.length; from += ROWS_PER_WRITE) {
      await table.add(batch(from));
    }
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
      started = performance.now();
      await table.createIndex('vector', {
        config: Index.hnswSq({ distanceType: 'cosine', numPartitions: 1 }),
      });
      const vectorIndexSeconds = (performance.now() - started) / 1000;

      const rrf = await rerankers.RRFReranker.create(60);
      const prepared = searches.map((query, i) => ({
        query,
        where: whereOf(query),
        vector: queryVectors[i],
      }));
      const fts = (query: Record<string, string>, where: string | undefined) => {
        const search = table.query().fullTextSearch(query.search).select(['id', '_score']).limit(LIMIT);
        return where ? search.where(where) : search;
      };
      const hybrid = (
        query: Record<string, string>,
        where: string | undefined,
        vector: Float32Array,
        explicitRrf: boolean,
      ) => {
        let search = table
          .query()
          .nearestTo(vector)
          .distanceType('cosine')
          .ef(options.ef)
          .fullTextSearch(query.search);
        if (explicitRrf) search = search.rerank(rrf);
        // only `id`: either side would lack the other's scoring column
        search = search.select(['id']).limit(LIMIT);
        return where ? search.where(where) : search;
      };
      const vectorRecall = await recallAt8(table, prepared, options.ef);
      type Kind = 'fts' | 'hybrid' | 'hybridNative';
      const samples: Record<Kind, number[]> = { fts: [], hybrid: [], hybridNative: [] };
      const zero: Record<Kind, string[]> = { fts: [], hybrid: [], hybridNative: [] };
      const orders: Kind[][] = [
        ['fts', 'hybrid', 'hybridNative'],
        ['hybrid', 'hybridNative', 'fts'],
        ['hybridNative', 'fts', 'hybrid'],
      ];
      let n = 0;
      for (let round = 0; round < rounds; round++) {
        for (const { query, where, vector } of prepared) {
          const timed = async (kind: Kind) => {
            const search =
              kind === 'fts' ? fts(query, where) : hybrid(query, where, vector, kind === 'hybrid');
            const began = performance.now();
            const rows = await search.toArray();
            const took = performance.now() - began;
            if (round === 0 && rows.length === 0) zero[kind].push(query.search);
            if (n > 0) samples[kind].push(took); // the first of each: a warm-up
          };
          for (const kind of orders[n % orders.length]) await timed(kind);
          n++;
        }
      }
      return {
        writeSeconds,
        indexSeconds,
        vectorIndexSeconds,
        fts: timingsOf(samples.fts, zero.fts),
        hybrid: timingsOf(samples.hybrid, zero.hybrid),
        hybridNative: timingsOf(samples.hybridNative, zero.hybridNative),
        vectorRecall,
        offers: offers.length,
        ef: options.ef,
      };
    } finally {
      table.close();
    }
  } finally {
    db.close();
    await rm(directory, { recursive: true, force: true });
  }
}

/** The HNSW side's recall@8 against LanceDB's exact search under the same prefilter (searches finding any). */
async function recallAt8(
  table: Table,
  prepared: { where: string | undefined; vector: Float32Array }[],
  ef: number,
): Promise<number> {
  let recall = 0;
  let compared = 0;
  for (const { where, vector } of prepared) {
    const nearest = (exact: boolean) => {
      let search = table
        .query()
        .nearestTo(vector)
        .distanceType('cosine')
        .ef(ef)
        .select(['id', '_distance'])
        .limit(LIMIT);
      if (exact) search = search.bypassVectorIndex();
      return (where ? search.where(where) : search).toArray() as Promise<{ id: string }[]>;
    };
    const truth = (await nearest(true)).map((row) => row.id);
    if (!truth.length) continue;
    const found = new Set((await nearest(false)).map((row) => row.id));
    recall += truth.filter((id) => found.has(id)).length / truth.length;
    compared++;
  }
  return recall / Math.max(1, compared);
}
