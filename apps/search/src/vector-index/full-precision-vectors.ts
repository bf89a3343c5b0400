/**
 * The stored vectors at full precision (pgvector's `vector`: 32-bit floats), from which the
 * candidates of the quantized search are re-scored, so that the order, `semantic_score`
 * (docs/decisions.md D-56) and the semantic floor are decided on the distances pgvector would
 * compute. Held in memory here; a variant reading the candidates' vectors from the database would
 * implement the same interface (docs/benchmarks.md, "Issue 50: the vector side in memory, probe").
 */
export interface FullPrecisionVectors {
  /** The cosine similarity of `query` (L2-normalised) with the stored vector of each of `ordinals`, into `into`. */
  cosines(query: Float32Array, ordinals: Int32Array, into: Float64Array): void;
  /** Bytes held in memory. */
  readonly bytes: number;
}

/**
 * Every vector as 32-bit floats, by ordinal: 1,536 bytes per vector of 384 dimensions (154 MB per
 * 100,000 offers).
 */
export class InMemoryFullPrecisionVectors implements FullPrecisionVectors {
  constructor(
    readonly dimension: number,
    /** `dimension` values per ordinal. */
    readonly values: Float32Array,
  ) {}

  cosines(query: Float32Array, ordinals: Int32Array, into: Float64Array): void {
    const { dimension, values } = this;
    for (let c = 0; c < ordinals.length; c++) {
      into[c] = cosineAt(query, values, ordinals[c] * dimension, dimension);
    }
  }

  get bytes(): number {
    return this.values.byteLength;
  }
}

/**
 * pgvector's cosine similarity of `query` with `dimension` values of `values` from `at`: the dot
 * product over the product of the norms, clamped to [−1, 1] (pgvector's `cosine_distance` is one
 * minus it; 0 when a norm is 0, where pgvector answers NaN).
 */
export function cosineAt(query: Float32Array, values: Float32Array, at: number, dimension: number): number {
  let dot = 0;
  let queryNorm = 0;
  let norm = 0;
  for (let i = 0; i < dimension; i++) {
    const q = query[i];
    const v = values[at + i];
    dot += q * v;
    queryNorm += q * q;
    norm += v * v;
  }
  if (queryNorm === 0 || norm === 0) return 0;
  return Math.max(-1, Math.min(1, dot / Math.sqrt(queryNorm * norm)));
}
