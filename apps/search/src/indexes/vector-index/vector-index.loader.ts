import type { DataSource } from 'typeorm';
import type { EmbeddingProviderName } from '../../embedding/embedding.settings';
import { HalfPrecisionVectors } from './half-precision-vectors';
import { ApproximateIndex } from './native-search';
import type { ApproximateIndexOptions } from './native-search';
import { QuantizedVectors } from './quantized-vectors';
import { SparseQueryScan } from './sparse-query-scan';
import { VectorIndex } from './vector-index';

/** Whether and how a load builds the approximate index. */
export interface VectorIndexLoadOptions {
  /** The approximate index is built when the generation holds at least this many offers (else exact scoring only). */
  approximateFromOffers: number;
  approximate: ApproximateIndexOptions;
  /** Native threads building the approximate index. */
  threads: number;
  /**
   * Whether the vectors are also laid out for the sparse query scan (SparseQueryScan): only when
   * the provider's query vectors are sparse (vectorIndexLoadOptions).
   */
  sparseLayout: boolean;
  /** Whether the load also answers the vectors as stored (32-bit floats: VectorIndexLoad.stored), for a bench's peer. */
  keepStored?: boolean;
}

/** What a load read. */
export interface VectorIndexLoad {
  index: VectorIndex;
  /**
   * The offers' ids by ordinal (byte order, as the text index's: text-index.loader.ts), for the
   * caller to check that both sides hold the same offers; the index itself keeps none.
   */
  ids: string[];
  /** The vectors as stored, by ordinal (options.keepStored only). */
  stored?: Float32Array;
  /** Milliseconds from the first statement to the vectors in memory. */
  readMilliseconds: number;
  /** Milliseconds building the approximate index (0 without one). */
  approximateMilliseconds: number;
  /** Milliseconds laying the vectors out for the sparse query scan (0 without it). */
  sparseMilliseconds: number;
}

/** Offers read by one statement (keyset pages in id order), the loader yielding between pages. */
export const VECTORS_PER_PAGE = 5_000;
/** pgvector's binary form (`vector_send`): dimension (int16), an unused int16, then the values as big-endian float4. */
const VECTOR_HEADER_BYTES = 4;

/**
 * Loads the vectors of the database's generation (`travel_offers.embedding`, pgvector) in one
 * read-only snapshot (REPEATABLE READ: the generation and every page of one catalogue, also while
 * a reindex commits), in pages of VECTORS_PER_PAGE offers in id order (`id COLLATE "C"`: the text
 * index's ordinals), each vector in pgvector's binary form, yielding between pages; then builds
 * the approximate index (options.approximateFromOffers), yielding between its chunks, outside the
 * snapshot.
 */
export async function loadVectorIndex(
  dataSource: DataSource,
  options: VectorIndexLoadOptions,
): Promise<VectorIndexLoad> {
  const started = performance.now();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  let generation: string;
  let ids: string[];
  let quantized: QuantizedVectors;
  let rescoring: HalfPrecisionVectors;
  let stored: Float32Array | undefined;
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const stats = (await runner.query('SELECT generation::text AS generation FROM search_stats')) as {
        generation: string;
      }[];
      // no stats row: never reindexed (generation "0" until its first build)
      generation = stats[0]?.generation ?? '0';
      // the column's dimension, as the migrations made it (the reindex refuses vectors of another)
      const [{ offers, dimension: columnDimension }] = (await runner.query(
        `SELECT count(*)::int AS offers,
           (SELECT NULLIF(atttypmod, -1) FROM pg_attribute
            WHERE attrelid = 'travel_offers'::regclass AND attname = 'embedding') AS dimension
         FROM travel_offers`,
      )) as { offers: number; dimension: number | null }[];
      if (columnDimension === null) throw new Error('travel_offers.embedding has no dimension');
      const dimension = columnDimension;
      ids = [];
      quantized = new QuantizedVectors(dimension, offers);
      rescoring = new HalfPrecisionVectors(dimension, offers);
      if (options.keepStored) stored = new Float32Array(offers * dimension);
      // one vector at a time: the 32-bit floats are never all held (twice the half precision's bytes)
      const vector = new Float32Array(dimension);
      // every id sorts after '' (ids are not empty)
      let after = '';
      for (;;) {
        const rows = (await runner.query(
          `SELECT id, vector_send(embedding) AS embedding FROM travel_offers
           WHERE id > $1 ORDER BY id LIMIT ${VECTORS_PER_PAGE}`,
          [after],
        )) as { id: string; embedding: Buffer }[];
        for (const row of rows) {
          if (ids.length === offers)
            throw new Error(`travel_offers holds more than the ${offers} offers counted`);
          readVector(row.embedding, dimension, vector, 0);
          quantized.set(ids.length, vector);
          rescoring.set(ids.length, vector);
          stored?.set(vector, ids.length * dimension);
          ids.push(row.id);
        }
        if (rows.length < VECTORS_PER_PAGE) break;
        after = rows[rows.length - 1].id;
        await yieldToEventLoop();
      }
      if (ids.length !== offers)
        throw new Error(`travel_offers holds ${ids.length} offers, ${offers} counted`);
      await runner.query('COMMIT');
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
  const readMilliseconds = performance.now() - started;
  let approximate: ApproximateIndex | undefined;
  if (ids.length >= options.approximateFromOffers) {
    approximate = await ApproximateIndex.build(
      quantized,
      options.approximate,
      options.threads,
      yieldToEventLoop,
    );
  }
  const approximateMilliseconds = performance.now() - started - readMilliseconds;
  const sparse = options.sparseLayout ? await SparseQueryScan.build(quantized, yieldToEventLoop) : undefined;
  const index = new VectorIndex(generation, quantized, rescoring, approximate, sparse);
  return {
    index,
    ids,
    stored,
    readMilliseconds,
    approximateMilliseconds,
    sparseMilliseconds: performance.now() - started - readMilliseconds - approximateMilliseconds,
  };
}

/**
 * One vector in pgvector's binary form (`vector_send`) into `into` at `at`: its dimension must be
 * `dimension`; the big-endian float4 values are swapped in place (the buffer is consumed).
 */
export function readVector(bytes: Buffer, dimension: number, into: Float32Array, at: number): void {
  if (bytes.length !== VECTOR_HEADER_BYTES + 4 * dimension || bytes.readInt16BE(0) !== dimension) {
    throw new Error(`a vector of ${bytes.length} bytes is not of dimension ${dimension}`);
  }
  const floats = bytes.subarray(VECTOR_HEADER_BYTES).swap32();
  // Typed arrays read the platform's byte order: little-endian on every platform Node supports.
  new Uint8Array(into.buffer, into.byteOffset + 4 * at, 4 * dimension).set(floats);
}

/** Lets the searches a replica serves meanwhile run between pages of a load. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The probe's choice (docs/benchmarks.md, "the vector side in memory, probe"): exact
 * int8 scoring alone up to 500,000 offers (2.9 ms at 100,000, recall 1.000, nothing to build);
 * past it usearch's HNSW at i8, M 16, ef 256 (recall@100 0.82 at 100,000, 51 MiB, 21 s to build
 * on 2 threads). The sparse layout only for the built-in provider: its query vectors are hashed
 * n-grams of a few words (19 of 384 dimensions non-zero at the median of the typed searches), while
 * a language model's (the `http` provider's) are dense and would never use the layout (37.4 MiB
 * per 100,000 offers of 384 dimensions).
 */
export function vectorIndexLoadOptions(provider: EmbeddingProviderName): VectorIndexLoadOptions {
  return {
    approximateFromOffers: 500_000,
    approximate: { scalar: 'i8', connectivity: 16, expansionAdd: 128, expansionSearch: 256 },
    threads: 2,
    sparseLayout: provider === 'builtin',
  };
}
