import { cosineAt } from './full-precision-vectors';
import { HalfPrecisionVectors } from './half-precision-vectors';
import { DIMENSION, QUERIES, offerVectors } from './vector-fixtures.spec-helper';

/** Every vector of `vectors` held at half precision. */
function heldOf(vectors: Float32Array): HalfPrecisionVectors {
  const count = vectors.length / DIMENSION;
  const held = new HalfPrecisionVectors(DIMENSION, count);
  for (let o = 0; o < count; o++) held.set(o, vectors, o * DIMENSION);
  return held;
}

/** The largest |held cosine − cosine of the stored 32-bit vector| over every query and vector. */
function largestError(held: HalfPrecisionVectors, vectors: Float32Array): number {
  const ordinals = Int32Array.from({ length: held.count }, (_, o) => o);
  const cosines = new Float64Array(held.count);
  let largest = 0;
  for (const query of QUERIES) {
    held.cosines(query, ordinals, cosines);
    for (let o = 0; o < held.count; o++) {
      largest = Math.max(largest, Math.abs(cosines[o] - cosineAt(query, vectors, o * DIMENSION, DIMENSION)));
    }
  }
  return largest;
}

describe('HalfPrecisionVectors', () => {
  const vectors = offerVectors(500);
  const held = heldOf(vectors);

  it('keeps the cosines of the built-in vectors within 1e-4 of the 32-bit floats (bound: 2^-11)', () => {
    const error = largestError(held, vectors);
    expect(error).toBeGreaterThan(0);
    expect(error).toBeLessThan(1e-4);
  });

  it('holds each vector scaled by a power of two, its largest component in [1, 2), each within 2^-11', () => {
    for (const o of [0, 17, held.count - 1]) {
      const source = vectors.subarray(o * DIMENSION, (o + 1) * DIMENSION);
      const vector = held.vector(o);
      const largest = Math.max(...vector.map(Math.abs));
      expect(largest).toBeGreaterThanOrEqual(1);
      expect(largest).toBeLessThan(2);
      const scale = 2 ** Math.round(Math.log2(largest / Math.max(...source.map(Math.abs))));
      source.forEach((value, i) =>
        expect(Math.abs(vector[i] - value * scale)).toBeLessThanOrEqual(
          Math.abs(value * scale) * 2 ** -11 + 2 ** -25,
        ),
      );
    }
  });

  it('answers the same cosines for vectors far below or above half precision’s range', () => {
    const scaled = (factor: number) => vectors.map((value) => value * factor);
    // 1e-30 is below half precision's smallest subnormal, 1e30 past its largest value
    for (const factor of [1e-30, 1e30]) {
      const other = heldOf(scaled(factor));
      const ordinals = Int32Array.from({ length: held.count }, (_, o) => o);
      const a = new Float64Array(held.count);
      const b = new Float64Array(held.count);
      held.cosines(QUERIES[3], ordinals, a);
      other.cosines(QUERIES[3], ordinals, b);
      expect(Math.max(...b.map((cosine, o) => Math.abs(cosine - a[o])))).toBeLessThan(2 * 2 ** -11);
      expect(largestError(other, scaled(factor))).toBeLessThanOrEqual(2 ** -11);
    }
  });

  it('answers 0 for a zero vector or query, and counts its bytes', () => {
    const zero = new HalfPrecisionVectors(DIMENSION, 2);
    zero.set(0, new Float32Array(DIMENSION));
    zero.set(1, vectors, 0);
    const cosines = new Float64Array(2);
    zero.cosines(QUERIES[0], Int32Array.of(0, 1), cosines);
    expect(cosines[0]).toBe(0);
    expect(cosines[1]).not.toBe(0);
    zero.cosines(new Float32Array(DIMENSION), Int32Array.of(0, 1), cosines);
    expect([...cosines]).toEqual([0, 0]);
    expect(zero.bytes).toBe(2 * DIMENSION * 2 + 2 * 8);
  });
});
