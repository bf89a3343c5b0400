import type { QuantizedVectors } from './quantized-vectors';
import { SPARSE_SCAN_WASM } from './sparse-scan.wasm';
import { TopK } from './top-k';

/**
 * Offers per block of the layout: per block, each dimension's values of its offers side by side
 * (256 bytes, four cache lines read in sequence), and the kernel scores them 16 at a time with
 * 128-bit SIMD while the query's lines of the block stay in the first-level cache (64 offers a
 * block read one line per dimension in no order the prefetcher follows: 0.53 against 0.41 ms at 19
 * non-zero dimensions of 100,000 offers, cache cold; 512 and 1,024 no faster).
 */
const OFFERS_PER_BLOCK = 256;
/**
 * Queries with at most this share of their dimensions non-zero are scored by the sparse scan; the
 * denser ones by usearch's SIMD over every vector's whole row (native-search.ts), which is faster
 * once most of a block's lines are read (at 100,000 offers, cache cold, the scan took 0.4 ms for
 * 19 non-zero dimensions of 384, 0.9 for 64, 1.6 for 128, 3.7 for 192; usearch 2.8 for any query:
 * docs/benchmarks.md, "the sparse query scan"). The built-in provider's queries are
 * sparse (a word is about 15 hashed n-grams: 6 to 100 non-zero dimensions over the typed
 * searches, 19 at the median); a language model's are dense and never take this path.
 */
export const SPARSE_MAX_SHARE = 1 / 3;
/** The layout is not made above this many bytes (WebAssembly's 32-bit memory addresses 4 GiB). */
const MAX_MEMORY_BYTES = 2 ** 31;
const PAGE_BYTES = 65_536;
/** Offers laid out between two pauses while building. */
const OFFERS_PER_PAUSE = 20_000;

let compiled: WebAssembly.Module | undefined;

function kernel(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(Buffer.from(SPARSE_SCAN_WASM, 'base64')));
}

interface Kernel {
  score(
    vectors: number,
    norms: number,
    out: number,
    blocks: number,
    blockBytes: number,
    dims: number,
    weights: number,
    nnz: number,
    blockOffers: number,
    maxes: number,
  ): void;
}

/**
 * One generation's int8 vectors (QuantizedVectors) laid out again for queries with few non-zero
 * dimensions, in a WebAssembly memory of their own: blocks of OFFERS_PER_BLOCK offers, each
 * block's dimension-major, with each offer's 1 / int8 norm. A query reads only its non-zero
 * dimensions' lines (the built-in provider's typed searches: about 5% of the 38.4 MB per 100,000
 * offers that the row scan reads), and the order it answers is exact: by the int8 cosines, as
 * usearch's row scan ranks them. Immutable once built; one search at a time (its scores are a view
 * over its memory, and it keeps its candidates in one heap).
 */
export class SparseQueryScan {
  private readonly kernel: Kernel;
  private readonly blocks: number;
  private readonly blockBytes: number;
  private readonly normsAt: number;
  private readonly scoresAt: number;
  private readonly dimsAt: number;
  private readonly weightsAt: number;
  private readonly maximaAt: number;
  private readonly bytes8: Int8Array;
  private readonly dims: Int32Array;
  private readonly scoreValues: Float32Array;
  /** Each block's largest score of the last query. */
  private readonly maxima: Float32Array;
  /** A copy of `maxima`, sorted to find the bound below which a block holds no candidate. */
  private readonly sortedMaxima: Float32Array;
  private candidates = new TopK(200);
  /** The most non-zero dimensions a query scored here has (SPARSE_MAX_SHARE of the dimension). */
  readonly maxNonZero: number;

  private constructor(
    readonly dimension: number,
    readonly count: number,
    private readonly memory: WebAssembly.Memory,
  ) {
    this.blocks = Math.ceil(count / OFFERS_PER_BLOCK);
    this.blockBytes = dimension * OFFERS_PER_BLOCK;
    const slots = this.blocks * OFFERS_PER_BLOCK;
    this.normsAt = this.blocks * this.blockBytes;
    this.scoresAt = this.normsAt + 4 * slots;
    this.dimsAt = this.scoresAt + 4 * slots;
    this.weightsAt = this.dimsAt + 4 * dimension;
    this.maximaAt = this.weightsAt + 16 * dimension;
    this.maxNonZero = Math.floor(SPARSE_MAX_SHARE * dimension);
    const instance = new WebAssembly.Instance(kernel(), { env: { memory } });
    this.kernel = instance.exports as unknown as Kernel;
    this.bytes8 = new Int8Array(memory.buffer);
    this.dims = new Int32Array(memory.buffer, this.dimsAt, dimension);
    this.scoreValues = new Float32Array(memory.buffer, this.scoresAt, count);
    this.maxima = new Float32Array(memory.buffer, this.maximaAt, this.blocks);
    this.sortedMaxima = new Float32Array(this.blocks);
  }

  /** Bytes the layout needs for `count` vectors of `dimension` values (vectors, norms, scores, query). */
  static bytesFor(dimension: number, count: number): number {
    const slots = Math.ceil(count / OFFERS_PER_BLOCK) * OFFERS_PER_BLOCK;
    return slots * dimension + 8 * slots + 4 * dimension + 16 * dimension + (4 * slots) / OFFERS_PER_BLOCK;
  }

  /**
   * The layout of `vectors`, OFFERS_PER_PAUSE offers at a time, awaiting `pause` between them (the
   * loader yields there, so that the searches a replica serves meanwhile run); undefined when it
   * would not fit a WebAssembly memory (MAX_MEMORY_BYTES).
   */
  static async build(
    vectors: QuantizedVectors,
    pause: () => Promise<void> = () => Promise.resolve(),
  ): Promise<SparseQueryScan | undefined> {
    const { dimension, count, values } = vectors;
    const bytes = SparseQueryScan.bytesFor(dimension, count);
    if (count === 0 || bytes > MAX_MEMORY_BYTES) return undefined;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE_BYTES) });
    const scan = new SparseQueryScan(dimension, count, memory);
    const norms = new Float32Array(memory.buffer, scan.normsAt, count);
    const blocked = scan.bytes8;
    for (let o = 0; o < count; o++) {
      const slot = o % OFFERS_PER_BLOCK;
      const blockStart = (o - slot) * dimension + slot;
      let squared = 0;
      for (let d = 0, from = o * dimension; d < dimension; d++) {
        const value = values[from + d];
        blocked[blockStart + d * OFFERS_PER_BLOCK] = value;
        squared += value * value;
      }
      norms[o] = squared === 0 ? 0 : 1 / Math.sqrt(squared);
      if ((o + 1) % OFFERS_PER_PAUSE === 0) await pause();
    }
    return scan;
  }

  /** Bytes of its memory. */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /**
   * The ordinals of the `wanted` offers (of `filtered`, ascending, when given) of the highest int8
   * cosine with `query` (quantized as the vectors are), best first, ties by ordinal; undefined
   * when the query has more than `maxNonZero` non-zero dimensions (the row scan is faster).
   */
  nearest(query: Int8Array, wanted: number, filtered?: Int32Array): Int32Array | undefined {
    const scores = this.scores(query);
    if (scores === undefined) return undefined;
    if (this.candidates.capacity < wanted) this.candidates = new TopK(wanted);
    const { candidates } = this;
    // ordinals ascending: a score equal to the worst kept loses its tie by ordinal
    let floor = -Infinity;
    if (filtered !== undefined) {
      candidates.reset(Math.min(wanted, filtered.length));
      for (let i = 0; i < filtered.length; i++) {
        const score = scores[filtered[i]];
        if (score <= floor) continue;
        candidates.offer(filtered[i], score);
        floor = candidates.floor;
      }
      return candidates.drain().ordinals;
    }
    candidates.reset(Math.min(wanted, this.count));
    const bound = this.candidateBound(wanted);
    const { maxima, count } = this;
    for (let b = 0; b < this.blocks; b++) {
      if (maxima[b] < bound) continue;
      const end = Math.min(count, (b + 1) * OFFERS_PER_BLOCK);
      for (let o = b * OFFERS_PER_BLOCK; o < end; o++) {
        if (scores[o] <= floor) continue;
        candidates.offer(o, scores[o]);
        floor = candidates.floor;
      }
    }
    return candidates.drain().ordinals;
  }

  /**
   * A score every one of the `wanted` best offers reaches: the `wanted`-th largest of the blocks'
   * largest scores (each of those blocks holds an offer scoring at least that), so that a block
   * whose largest is below it holds no candidate and is not read (at 100,000 offers, most of the
   * 391 blocks).
   */
  private candidateBound(wanted: number): number {
    const { maxima, blocks, count } = this;
    const lastFrom = (blocks - 1) * OFFERS_PER_BLOCK;
    if (lastFrom + OFFERS_PER_BLOCK > count) {
      // the last block's empty slots score 0, which none of its offers may reach
      let largest = -Infinity;
      for (let o = lastFrom; o < count; o++) largest = Math.max(largest, this.scoreValues[o]);
      maxima[blocks - 1] = largest;
    }
    if (blocks <= wanted) return -Infinity;
    const sorted = this.sortedMaxima;
    sorted.set(maxima);
    sorted.sort();
    return sorted[blocks - wanted];
  }

  /**
   * Each offer's int8 dot product with `query` divided by the offer's int8 norm, by ordinal (a view
   * of `count` values, valid until the next call), and each block's largest into `maxima`;
   * undefined when the query has more than `maxNonZero` non-zero dimensions.
   */
  scores(query: Int8Array): Float32Array | undefined {
    const { dims, bytes8, weightsAt } = this;
    let nonZero = 0;
    for (let d = 0; d < this.dimension; d++) {
      const weight = query[d];
      if (weight === 0) continue;
      if (nonZero === this.maxNonZero) return undefined;
      dims[nonZero] = d * OFFERS_PER_BLOCK;
      bytes8.fill(weight, weightsAt + 16 * nonZero, weightsAt + 16 * (nonZero + 1));
      nonZero++;
    }
    this.kernel.score(
      0,
      this.normsAt,
      this.scoresAt,
      this.blocks,
      this.blockBytes,
      this.dimsAt,
      weightsAt,
      nonZero,
      OFFERS_PER_BLOCK,
      this.maximaAt,
    );
    return this.scoreValues;
  }
}
