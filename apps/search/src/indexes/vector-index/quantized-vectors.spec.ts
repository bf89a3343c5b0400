import { seededRandom } from '@rt/contracts';
import { cosineAt } from './full-precision-vectors';
import { QuantizedVectors, quantizedQuery } from './quantized-vectors';
import { DIMENSION, QUERIES, offerVectors } from './vector-fixtures.spec-helper';

/** The cosine of two int8 vectors. */
function int8Cosine(a: Int8Array, b: Int8Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return dot / Math.sqrt(aa * bb);
}

describe('QuantizedVectors', () => {
  it('scales each vector to the whole int8 range and rounds each component within half a step', () => {
    const random = seededRandom(3);
    const source = Float32Array.from({ length: 50 * DIMENSION }, () => (random() - 0.5) * random() ** 4);
    const quantized = new QuantizedVectors(DIMENSION, 50);
    for (let o = 0; o < 50; o++) quantized.set(o, source, o * DIMENSION);
    for (let o = 0; o < 50; o++) {
      const original = source.subarray(o * DIMENSION, (o + 1) * DIMENSION);
      const step = Math.max(...original.map(Math.abs)) / 127;
      const vector = quantized.vector(o);
      expect(Math.max(...vector.map(Math.abs))).toBe(127);
      // the largest rounding error, in steps
      const error = Math.max(...vector.map((value, i) => Math.abs(value * step - original[i]) / step));
      expect(error).toBeLessThanOrEqual(0.5 + 1e-6);
    }
    expect(quantized.bytes).toBe(50 * DIMENSION);
  });

  it('quantizes a zero vector to zeros', () => {
    expect([...quantizedQuery(new Float32Array(4))]).toEqual([0, 0, 0, 0]);
  });

  it('keeps the cosines of the built-in vectors within 0.01 of full precision', () => {
    const vectors = offerVectors(500);
    const count = vectors.length / DIMENSION;
    const quantized = new QuantizedVectors(DIMENSION, count);
    for (let o = 0; o < count; o++) quantized.set(o, vectors, o * DIMENSION);
    let largestError = 0;
    for (const query of QUERIES) {
      const q = quantizedQuery(query);
      for (let o = 0; o < count; o++) {
        const error = Math.abs(
          int8Cosine(q, quantized.vector(o)) - cosineAt(query, vectors, o * DIMENSION, DIMENSION),
        );
        largestError = Math.max(largestError, error);
      }
    }
    expect(largestError).toBeLessThan(0.01);
  });
});
