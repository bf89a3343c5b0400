import { readVector } from './vector-index.loader';

/** pgvector's binary form of a vector (`vector_send`): dimension, an unused int16, big-endian float4 values. */
function vectorSend(values: number[]): Buffer {
  const bytes = Buffer.alloc(4 + 4 * values.length);
  bytes.writeInt16BE(values.length, 0);
  values.forEach((value, i) => bytes.writeFloatBE(value, 4 + 4 * i));
  return bytes;
}

describe('readVector', () => {
  it("reads pgvector's binary form into its place", () => {
    const into = new Float32Array(8);
    readVector(vectorSend([1, 2.5, -3, 0.1]), 4, into, 4);
    expect([...into]).toEqual([0, 0, 0, 0, 1, 2.5, -3, Math.fround(0.1)]);
  });

  it('refuses a vector of another dimension', () => {
    expect(() => readVector(vectorSend([1, 2, 3]), 4, new Float32Array(4), 0)).toThrow(
      'a vector of 16 bytes is not of dimension 4',
    );
  });
});
