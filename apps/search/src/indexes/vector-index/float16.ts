/**
 * IEEE 754 half precision (binary16) held as its 16 bits: Node 20 has no Float16Array, and the
 * maintained polyfill (@petamoriken/float16, the unit tests' reference) converts through a DataView
 * at about 2.6 µs a value, 100 s for the 38.4 million values of 100,000 vectors.
 */

const single = new Float32Array(1);
const singleBits = new Uint32Array(single.buffer);

/**
 * The binary16 bits nearest to `value` (first rounded to a 32-bit float, as pgvector stores it),
 * ties to even: subnormals kept, magnitudes past 65,504 (after rounding) to ±Infinity, NaN to a
 * quiet NaN.
 */
export function float16Bits(value: number): number {
  single[0] = value;
  const bits = singleBits[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200);
  // the exponent rebiased from 127 to 15
  const halfExponent = exponent - 112;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    // below half the smallest subnormal (2^-25), or a single-precision subnormal: ±0
    if (halfExponent < -10) return sign;
    // a subnormal: the significand with its leading 1, in steps of 2^-24
    const significand = mantissa | 0x800000;
    const shift = 14 - halfExponent;
    return sign | roundedShift(significand, shift);
  }
  // a carry out of the mantissa steps the exponent up (to Infinity past 65,504), as it should
  return sign | ((halfExponent << 10) + roundedShift(mantissa, 13));
}

/** `value` >> `shift` (0 < shift < 31), rounded to nearest, ties to even. */
function roundedShift(value: number, shift: number): number {
  const kept = value >>> shift;
  const rest = value & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  return rest > half || (rest === half && (kept & 1) === 1) ? kept + 1 : kept;
}

/** The value of binary16 `bits` (the low 16 bits of the argument). */
export function float16Value(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (0x400 + mantissa) * 2 ** (exponent - 25);
}

/**
 * Every binary16 value by its bits (256 KiB): a decode is one read, `FLOAT16_VALUES[bits]`, exact
 * (every binary16 value is a 32-bit float).
 */
export const FLOAT16_VALUES: Float32Array = Float32Array.from({ length: 0x10000 }, (_, bits) =>
  float16Value(bits),
);
