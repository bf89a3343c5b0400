import { cosineOf } from './full-precision-vectors';
import type { RescoringVectors } from './full-precision-vectors';
import { FLOAT16_VALUES, float16Bits } from './float16';

/**
 * How far a cosine of the vectors as held may be from the cosine of the stored vectors, pgvector's
 * (2^-11: HalfPrecisionVectors's comment); the tests compare `semantic_score` with pgvector's within it.
 */
export const HALF_PRECISION_COSINE_ERROR = 2 ** -11;

/**
 * Every vector at half precision (binary16, float16.ts), by ordinal: 768 bytes per vector of 384
 * dimensions (76.8 MB per 100,000 offers, half of the 32-bit floats pgvector stores), and the
 * squared norm of each vector as held (8 bytes). Each vector is held multiplied by the power of two
 * that brings its largest component into [1, 2): exact, without effect on a cosine, and so no
 * component overflows and only those below 2^-14 of the largest lose precision (to subnormals).
 * Rounding each component to 11 significant bits moves a vector's direction by at most 2^-11
 * radians, hence a cosine by at most 2^-11 (4.9e-4) from the one of the stored vector: measured
 * over the judged sets' catalogues, at most 1.1e-4 from pgvector's (docs/decisions.md D-75).
 */
export class HalfPrecisionVectors implements RescoringVectors {
  /** `dimension` binary16 values per ordinal. */
  readonly values: Uint16Array;
  private readonly squaredNorms: Float64Array;

  constructor(
    readonly dimension: number,
    readonly count: number,
  ) {
    this.values = new Uint16Array(dimension * count);
    this.squaredNorms = new Float64Array(count);
  }

  /** Holds the vector of `ordinal` from `source` (`dimension` finite values from `from`). */
  set(ordinal: number, source: Float32Array, from = 0): void {
    const { dimension, values } = this;
    let largest = 0;
    for (let i = 0; i < dimension; i++) largest = Math.max(largest, Math.abs(source[from + i]));
    const scale = largest === 0 ? 1 : 2 ** -Math.floor(Math.log2(largest));
    const at = ordinal * dimension;
    let norm = 0;
    for (let i = 0; i < dimension; i++) {
      const bits = float16Bits(source[from + i] * scale);
      values[at + i] = bits;
      norm += FLOAT16_VALUES[bits] * FLOAT16_VALUES[bits];
    }
    this.squaredNorms[ordinal] = norm;
  }

  /** The vector of `ordinal` as held (scaled by a power of two), as 32-bit floats. */
  vector(ordinal: number): Float32Array {
    const at = ordinal * this.dimension;
    return Float32Array.from(this.values.subarray(at, at + this.dimension), (bits) => FLOAT16_VALUES[bits]);
  }

  cosines(query: Float32Array, ordinals: Int32Array, into: Float64Array): void {
    const { dimension, values, squaredNorms } = this;
    let queryNorm = 0;
    for (let i = 0; i < dimension; i++) queryNorm += query[i] * query[i];
    for (let c = 0; c < ordinals.length; c++) {
      const ordinal = ordinals[c];
      const at = ordinal * dimension;
      let dot = 0;
      for (let i = 0; i < dimension; i++) dot += query[i] * FLOAT16_VALUES[values[at + i]];
      into[c] = cosineOf(dot, queryNorm, squaredNorms[ordinal]);
    }
  }

  get bytes(): number {
    return this.values.byteLength + this.squaredNorms.byteLength;
  }
}
