import { randomUUID } from 'node:crypto';
import { randomAlphanumeric, secretMatchesHash, sha256Hex } from '../common/secrets';

/**
 * Sign-in tokens as docs/decisions.md D-20 defines them: `<token id>|<random part>`. The id (a UUID) finds
 * the row; the random part (48 characters of [A-Za-z0-9], ~285 bits) is the secret, of which only
 * the SHA-256 is stored and compared in constant time. A fast hash suffices here: the secret is
 * random, not a password, so it cannot be guessed from its hash.
 */
export const ACCESS_TOKEN_SECRET_LENGTH = 48;

const TOKEN_PATTERN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\|([A-Za-z0-9]{40,128})$/i;

export interface NewAccessToken {
  id: string;
  /** What the client receives, once. */
  plainText: string;
  /** What is stored. */
  hash: string;
}

export function newAccessToken(): NewAccessToken {
  const id = randomUUID();
  const secret = randomAlphanumeric(ACCESS_TOKEN_SECRET_LENGTH);
  return { id, plainText: `${id}|${secret}`, hash: sha256Hex(secret) };
}

export interface ParsedAccessToken {
  id: string;
  secret: string;
}

/** The parts of a bearer token, or null when it cannot be one of ours. */
export function parseAccessToken(plainText: string): ParsedAccessToken | null {
  const match = TOKEN_PATTERN.exec(plainText);
  return match ? { id: match[1].toLowerCase(), secret: match[2] } : null;
}

export function accessTokenMatches(token: ParsedAccessToken, storedHash: string): boolean {
  return secretMatchesHash(token.secret, storedHash);
}

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearerTokenOf(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
