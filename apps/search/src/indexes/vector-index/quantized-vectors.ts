/** The largest magnitude of an int8 component (−127 … 127: −128 is left out so that the range is symmetric). */
const INT8_MAX = 127;

/**
 * Writes `vector` (`dimension` values of `source` from `from`) quantized to int8 into `into` at
 * `at`: multiplied by 127 / its largest component's magnitude and rounded, so that every vector
 * uses the whole int8 range. The built-in provider's components are small and uneven: one scale
 * for all vectors, or usearch's own cast (× 127 / the L2 norm, truncated), leaves most of them a
 * few steps wide. A cosine needs no scale back: it ignores each vector's scale.
 */
export function quantizeInto(
  source: Float32Array,
  from: number,
  dimension: number,
  into: Int8Array,
  at: number,
): void {
  let largest = 0;
  for (let i = 0; i < dimension; i++) largest = Math.max(largest, Math.abs(source[from + i]));
  const scale = largest === 0 ? 0 : INT8_MAX / largest;
  for (let i = 0; i < dimension; i++) into[at + i] = Math.round(source[from + i] * scale);
}

/** A query quantized as the vectors are (quantizeInto). */
export function quantizedQuery(query: Float32Array): Int8Array {
  const quantized = new Int8Array(query.length);
  quantizeInto(query, 0, query.length, quantized, 0);
  return quantized;
}

/**
 * One generation's vectors quantized to int8 (quantizeInto), by ordinal: 384 bytes per vector of
 * 384 dimensions (38.4 MB per 100,000 offers).
 */
export class QuantizedVectors {
  readonly values: Int8Array;

  constructor(
    readonly dimension: number,
    readonly count: number,
  ) {
    this.values = new Int8Array(dimension * count);
  }

  /** Quantizes the vector of `ordinal` from `source` (`dimension` values from `from`). */
  set(ordinal: number, source: Float32Array, from = 0): void {
    quantizeInto(source, from, this.dimension, this.values, ordinal * this.dimension);
  }

  /** The quantized vector of `ordinal` (a view). */
  vector(ordinal: number): Int8Array {
    return this.values.subarray(ordinal * this.dimension, (ordinal + 1) * this.dimension);
  }

  get bytes(): number {
    return this.values.byteLength;
  }
}
