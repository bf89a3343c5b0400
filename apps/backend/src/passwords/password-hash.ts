import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard), Node's built-in `crypto.scrypt` (no native module).
 *
 * Default parameters (configurable, see PasswordSettings.PASSWORD_SCRYPT_*):
 *   N = 2^15 = 32768 (CPU/memory cost), r = 8 (block size), p = 3 (parallelisation)
 *   → 128 · N · r = 32 MiB of memory per hash; OWASP's Password Storage Cheat Sheet lists
 *   "N=2^15, r=8, p=3" as equivalent to its minimum "N=2^17, r=8, p=1".
 *   Salt: 16 random bytes; derived key: 32 bytes.
 *
 * Stored form, PHC-like and self-describing, so parameters can change without breaking old hashes:
 *   $scrypt$ln=15,r=8,p=3$<salt, base64 without padding>$<key, base64 without padding>
 * A hash made with other parameters still verifies, and is replaced at the next successful login.
 */
export interface ScryptParameters {
  /** Cost N, a power of two. */
  n: number;
  r: number;
  p: number;
}

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const HASH_PATTERN = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Memory scrypt needs (128·N·r bytes) plus headroom; Node refuses above `maxmem` (32 MiB by default). */
const maxmemOf = ({ n, r }: ScryptParameters) => 128 * n * r + 16 * 1024 * 1024;

function derive(
  password: string,
  salt: Buffer,
  parameters: ScryptParameters,
  keyLength: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      keyLength,
      { N: parameters.n, r: parameters.r, p: parameters.p, maxmem: maxmemOf(parameters) },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const b64 = (buffer: Buffer) => buffer.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string, parameters: ScryptParameters): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, parameters, KEY_BYTES);
  return `$scrypt$ln=${Math.log2(parameters.n)},r=${parameters.r},p=${parameters.p}$${b64(salt)}$${b64(key)}`;
}

export interface ParsedPasswordHash {
  parameters: ScryptParameters;
  salt: Buffer;
  key: Buffer;
}

export function parsePasswordHash(encoded: string): ParsedPasswordHash | null {
  const match = HASH_PATTERN.exec(encoded);
  if (!match) return null;
  const [, ln, r, p, salt, key] = match;
  const parameters = { n: 2 ** Number(ln), r: Number(r), p: Number(p) };
  if (Number(ln) < 1 || Number(ln) > 24 || parameters.r < 1 || parameters.p < 1) return null;
  return { parameters, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

/** Constant-time check of a password against a stored hash; false for anything unparseable. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parsePasswordHash(encoded);
  if (!parsed || parsed.key.length === 0) return false;
  const key = await derive(password, parsed.salt, parsed.parameters, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

export function needsRehash(encoded: string, parameters: ScryptParameters): boolean {
  const parsed = parsePasswordHash(encoded);
  if (!parsed) return true;
  const current = parsed.parameters;
  return current.n !== parameters.n || current.r !== parameters.r || current.p !== parameters.p;
}
