import { getFloat16, setFloat16 } from '@petamoriken/float16';
import { seededRandom } from '@rt/contracts';
import { FLOAT16_VALUES, float16Bits, float16Value } from './float16';

const view = new DataView(new ArrayBuffer(2));

/** The reference library's binary16 bits of `value`. */
function referenceBits(value: number): number {
  setFloat16(view, 0, value);
  return view.getUint16(0);
}

/** A 32-bit float from its bits. */
function singleOf(bits: number): number {
  const single = new Float32Array(1);
  new Uint32Array(single.buffer)[0] = bits >>> 0;
  return single[0];
}

describe('float16', () => {
  it('decodes every one of the 65,536 bit patterns as the reference library does', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      view.setUint16(0, bits);
      const wanted = getFloat16(view, 0);
      expect(
        Object.is(float16Value(bits), wanted) || (Number.isNaN(wanted) && Number.isNaN(float16Value(bits))),
      ).toBe(true);
      expect(Object.is(FLOAT16_VALUES[bits], float16Value(bits)) || Number.isNaN(wanted)).toBe(true);
    }
  });

  it('rounds 32-bit floats to the same bits as the reference library (ties to even, subnormals, overflow)', () => {
    const random = seededRandom(16);
    const values: number[] = [];
    // random bit patterns over the whole range of 32-bit floats, and dense around half's edges
    for (let i = 0; i < 30_000; i++) values.push(singleOf(Math.floor(random() * 2 ** 32)));
    for (let i = 0; i < 30_000; i++) values.push((random() - 0.5) * 2 ** (Math.floor(random() * 46) - 28));
    // exact ties: halfway between two neighbours (normal, subnormal, the smallest subnormal)
    for (const tie of [
      1 + 2 ** -11,
      1 + 3 * 2 ** -11,
      2 ** -25,
      3 * 2 ** -25,
      2 ** -14 + 2 ** -25,
      65520,
      65519.99,
    ])
      values.push(tie, -tie);
    values.push(0, -0, 65504, 65505, -65536, 2 ** -24, 2 ** -26, 1e-45, Infinity, -Infinity, 6.1035e-5);
    for (const value of values) {
      const single = Math.fround(value);
      // NaNs: a quiet NaN either way (the payloads differ)
      if (Number.isNaN(single)) {
        expect(float16Bits(single) & 0x7e00).toBe(0x7e00);
        continue;
      }
      if (float16Bits(single) !== referenceBits(single)) {
        throw new Error(
          `${single}: ${float16Bits(single).toString(16)}, wanted ${referenceBits(single).toString(16)}`,
        );
      }
    }
  });

  it('answers a quiet NaN for NaN, ±Infinity beyond 65,504, ±0 below 2^-25', () => {
    expect(Number.isNaN(float16Value(float16Bits(NaN)))).toBe(true);
    expect(float16Value(float16Bits(1e6))).toBe(Infinity);
    expect(float16Value(float16Bits(-65520))).toBe(-Infinity);
    expect(float16Value(float16Bits(65519))).toBe(65504);
    expect(Object.is(float16Value(float16Bits(-1e-8)), -0)).toBe(true);
    expect(float16Value(float16Bits(2 ** -24))).toBe(2 ** -24);
  });

  it('keeps every normal value within half a step (2^-11 of it) and a subnormal within 2^-25', () => {
    const random = seededRandom(11);
    let normal = 0;
    let subnormal = 0;
    for (let i = 0; i < 200_000; i++) {
      const value = Math.fround((random() - 0.5) * 2 ** (Math.floor(random() * 40) - 30));
      const error = Math.abs(float16Value(float16Bits(value)) - value);
      if (Math.abs(value) >= 2 ** -14) normal = Math.max(normal, error / Math.abs(value));
      else subnormal = Math.max(subnormal, error);
    }
    expect(normal).toBeLessThanOrEqual(2 ** -11);
    expect(normal).toBeGreaterThan(2 ** -12);
    expect(subnormal).toBeLessThanOrEqual(2 ** -25);
    expect(subnormal).toBeGreaterThan(2 ** -26);
  });
});
