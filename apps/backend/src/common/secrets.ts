import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The largest multiple of 62 below 256: bytes at or above it are drawn again (no modulo bias).
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** `length` characters from [A-Za-z0-9], drawn uniformly from the OS CSPRNG (~5.95 bits each). */
export function randomAlphanumeric(length: number): string {
  let result = '';
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      result += ALPHABET[byte % ALPHABET.length];
      if (result.length === length) break;
    }
  }
  return result;
}

/** Hex SHA-256: what is stored of a high-entropy secret (tokens), never the secret itself. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Whether `secret` hashes to `storedHashHex`, compared in constant time. Both sides are 32-byte
 * digests, so neither the length nor the content of the secret leaks through timing.
 */
export function secretMatchesHash(secret: string, storedHashHex: string): boolean {
  const given = createHash('sha256').update(secret, 'utf8').digest();
  const stored = Buffer.from(storedHashHex, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored);
}

/** Constant-time equality of two strings of any length (e.g. a static bearer token). */
export function constantTimeEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
