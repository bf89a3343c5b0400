/**
 * The stored vectors from which the candidates of the quantized search are re-scored, so that the
 * order, `semantic_score` (docs/decisions.md D-56) and the semantic floor are decided on the
 * cosines pgvector computes (within 1e-3): a replica holds them at half precision
 * (HalfPrecisionVectors); InMemoryFullPrecisionVectors holds pgvector's 32-bit floats (the tests'
 * and the probe's reference); a variant reading the candidates' vectors from the database would
 * implement the same interface (docs/benchmarks.md, "the vector side in memory, probe").
 */
export interface RescoringVectors {
  /** The cosine similarity of `query` (L2-normalised) with the stored vector of each of `ordinals`, into `into`. */
  cosines(query: Float32Array, ordinals: Int32Array, into: Float64Array): void;
  /** Bytes held in memory. */
  readonly bytes: number;
}

/**
 * Every vector as 32-bit floats, by ordinal: 1,536 bytes per vector of 384 dimensions (154 MB per
 * 100,000 offers), and each vector's squared norm (8 bytes), summed once here as `cosineAt` sums it
 * per call: a cosine then costs one product per dimension instead of three, and equals
 * `cosineAt`'s to the last bit (the same sums in the same order).
 */
export class InMemoryFullPrecisionVectors implements RescoringVectors {
  private readonly squaredNorms: Float64Array;

  constructor(
    readonly dimension: number,
    /** `dimension` values per ordinal. */
    readonly values: Float32Array,
  ) {
    const count = Math.floor(values.length / dimension);
    this.squaredNorms = new Float64Array(count);
    for (let o = 0; o < count; o++) this.squaredNorms[o] = squaredNormAt(values, o * dimension, dimension);
  }

  cosines(query: Float32Array, ordinals: Int32Array, into: Float64Array): void {
    const { dimension, values, squaredNorms } = this;
    const queryNorm = squaredNormAt(query, 0, dimension);
    for (let c = 0; c < ordinals.length; c++) {
      const ordinal = ordinals[c];
      const at = ordinal * dimension;
      let dot = 0;
      for (let i = 0; i < dimension; i++) dot += query[i] * values[at + i];
      into[c] = cosineOf(dot, queryNorm, squaredNorms[ordinal]);
    }
  }

  get bytes(): number {
    return this.values.byteLength + this.squaredNorms.byteLength;
  }
}

function squaredNormAt(values: Float32Array, at: number, dimension: number): number {
  let norm = 0;
  for (let i = 0; i < dimension; i++) norm += values[at + i] * values[at + i];
  return norm;
}

/** The cosine of a dot product and two squared norms, clamped to [−1, 1]; 0 when a norm is 0. */
export function cosineOf(dot: number, queryNorm: number, norm: number): number {
  if (queryNorm === 0 || norm === 0) return 0;
  return Math.max(-1, Math.min(1, dot / Math.sqrt(queryNorm * norm)));
}

/**
 * pgvector's cosine similarity of `query` with `dimension` values of `values` from `at`: the dot
 * product over the product of the norms, clamped to [−1, 1] (pgvector's `cosine_distance` is one
 * minus it; 0 when a norm is 0, where pgvector answers NaN).
 */
export function cosineAt(query: Float32Array, values: Float32Array, at: number, dimension: number): number {
  let dot = 0;
  for (let i = 0; i < dimension; i++) dot += query[i] * values[at + i];
  return cosineOf(dot, squaredNormAt(query, 0, dimension), squaredNormAt(values, at, dimension));
}
