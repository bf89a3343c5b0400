import { Index, MetricKind, ScalarKind, exactSearch } from 'usearch';
import type { QuantizedVectors } from './quantized-vectors';

// The only file that knows the vector search library (usearch: SIMD distances and HNSW in native
// code, prebuilt for linux-x64, linux-arm64 and macOS); another one replaces it here.

/**
 * The ordinals of the `k` vectors of `values` (`dimension` int8 values each, ordinal = position)
 * nearest to `query` (quantized as they are) by cosine, nearest first: exact, with SIMD, on one
 * thread.
 */
export function exactInt8Nearest(
  values: Int8Array,
  dimension: number,
  query: Int8Array,
  k: number,
): Int32Array {
  const count = values.length / dimension;
  const wanted = Math.min(k, count);
  if (wanted === 0) return new Int32Array(0);
  const { keys } = exactSearch(values, query, dimension, wanted, MetricKind.Cos, 1) as {
    keys: BigUint64Array;
  };
  return ordinalsOf(keys);
}

/** How the approximate index stores its own copy of the vectors. */
export type ApproximateScalar = 'i8' | 'f16' | 'f32';

export interface ApproximateIndexOptions {
  scalar: ApproximateScalar;
  /** Neighbours per node (HNSW's M). */
  connectivity: number;
  /** Candidates kept while inserting (ef_construction). */
  expansionAdd: number;
  /** Candidates kept while searching (ef_search): usearch fixes it when the index is made. */
  expansionSearch: number;
}

const SCALARS: Record<ApproximateScalar, ScalarKind> = {
  i8: ScalarKind.I8,
  f16: ScalarKind.F16,
  f32: ScalarKind.F32,
};

/** Vectors inserted between two pauses while building. */
const VECTORS_PER_CHUNK = 5_000;

/**
 * The approximate nearest-neighbour index of one generation, keyed by ordinal: usearch's HNSW by
 * cosine. It keeps its own copy of the vectors (at `scalar`), made from QuantizedVectors' int8
 * values (the cosine ignores their per-vector scale). usearch's JavaScript binding hands it 32-bit
 * floats only (an Int8Array becomes floats of the same values), and an `i8` index casts them
 * itself (× 127 / the L2 norm, truncated), coarser than QuantizedVectors.
 */
export class ApproximateIndex {
  private constructor(
    private readonly index: Index,
    readonly options: ApproximateIndexOptions,
  ) {}

  /**
   * Builds the index over every vector, VECTORS_PER_CHUNK at a time with `threads` native threads,
   * awaiting `pause` between chunks (the loader yields there, so that the searches a replica
   * serves meanwhile run).
   */
  static async build(
    vectors: QuantizedVectors,
    options: ApproximateIndexOptions,
    threads: number,
    pause: () => Promise<void> = () => Promise.resolve(),
  ): Promise<ApproximateIndex> {
    const index = new Index({
      dimensions: vectors.dimension,
      metric: MetricKind.Cos,
      quantization: SCALARS[options.scalar],
      connectivity: options.connectivity,
      expansion_add: options.expansionAdd,
      expansion_search: options.expansionSearch,
      multi: false,
    });
    const { dimension, count, values } = vectors;
    for (let from = 0; from < count; from += VECTORS_PER_CHUNK) {
      const to = Math.min(count, from + VECTORS_PER_CHUNK);
      const keys = new BigUint64Array(to - from);
      for (let o = from; o < to; o++) keys[o - from] = BigInt(o);
      // int8 steps scaled into [−1, 1]: on a CPU with AVX-512 FP16 usearch sums an f16 index's
      // products in f16, whose largest value (65,504) 384 products of ±127² overflow (recall fell
      // to 0.01 on such a machine); the cosine ignores the scale
      const chunk = new Float32Array((to - from) * dimension);
      for (let i = 0; i < chunk.length; i++) chunk[i] = values[from * dimension + i] / 127;
      index.add(keys, chunk, threads);
      await pause();
    }
    return new ApproximateIndex(index, options);
  }

  /** The ordinals of (about) the `k` nearest vectors to `query`, nearest first. */
  search(query: Float32Array, k: number): Int32Array {
    const wanted = Math.min(k, this.index.size());
    if (wanted === 0) return new Int32Array(0);
    return ordinalsOf(this.index.search(query, wanted, 1).keys);
  }

  get size(): number {
    return this.index.size();
  }
}

function ordinalsOf(keys: BigUint64Array): Int32Array {
  const ordinals = new Int32Array(keys.length);
  for (let i = 0; i < ordinals.length; i++) ordinals[i] = Number(keys[i]);
  return ordinals;
}
