import { createHash } from 'node:crypto';

/** Bumped when the way records are indexed changes, so that the next reindex rewrites every row. */
export const INDEX_FORMAT_VERSION = 1;

/** JSON.stringify replacer that writes object keys in sorted order (objects already sorted are kept). */
function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] < keys[i];
  if (sorted) return value;
  const copy: Record<string, unknown> = {};
  for (const key of keys.sort()) copy[key] = (value as Record<string, unknown>)[key];
  return copy;
}

/**
 * JSON with object keys sorted at every level: two records that differ only in key order (or in
 * whitespace) are the same content.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? 'null';
}

export interface EmbeddingIdentity {
  model: string;
  dimension: number;
}

/**
 * The content hash of a record: changes when the record's content, the embedding model or its
 * dimension changes (docs/decisions.md D-60), and only then does a reindex embed and rewrite the row.
 */
export function contentHash(record: unknown, embedding: EmbeddingIdentity): string {
  return createHash('sha256')
    .update(`v${INDEX_FORMAT_VERSION}\n${embedding.model}\n${embedding.dimension}\n`)
    .update(canonicalJson(record))
    .digest('base64url');
}
