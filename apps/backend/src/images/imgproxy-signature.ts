import { createHmac, timingSafeEqual } from 'node:crypto';

/** imgproxy's key and salt, as bytes (configured hex-encoded, as imgproxy takes them). */
export interface SigningPair {
  key: Buffer;
  salt: Buffer;
}

export function signingPairOf(keyHex: string, saltHex: string): SigningPair {
  return { key: Buffer.from(keyHex, 'hex'), salt: Buffer.from(saltHex, 'hex') };
}

/**
 * imgproxy's URL signature: HMAC-SHA256 keyed with `key` over `salt` followed by the path after
 * the signature segment (leading `/` included), URL-safe base64 without padding.
 */
export function signPath(pair: SigningPair, path: string): string {
  return createHmac('sha256', pair.key).update(pair.salt).update(path).digest('base64url');
}

/** Whether `signature` is the signature of `path`, compared in constant time. */
export function isValidSignature(pair: SigningPair, path: string, signature: string): boolean {
  const expected = Buffer.from(signPath(pair, path));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
