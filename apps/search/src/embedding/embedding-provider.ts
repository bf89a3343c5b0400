/**
 * Turns text into embeddings. The built-in provider (builtin-embedding.provider.ts) runs offline;
 * part 2 of the search service adds an OpenAI-compatible HTTP provider behind the same interface.
 * Vectors are L2-normalised, so cosine similarity is their dot product.
 */
export interface EmbeddingProvider {
  /** Goes into every content hash: changing it re-embeds the whole catalogue. */
  readonly model: string;
  /** Goes into every content hash; must match the `embedding` column's dimension. */
  readonly dimension: number;
  /** Embeds documents for the index, in order (a reindex sends batches). */
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  /** Embeds one search query. */
  embedQuery(text: string): Promise<Float32Array>;
}

export const EMBEDDING_PROVIDER = Symbol('EMBEDDING_PROVIDER');

/** pgvector's text form, `[0.1,-0.2,…]`, with 7 significant digits (float4 keeps about that many). */
export function toVectorLiteral(vector: Float32Array | number[]): string {
  let out = '[';
  for (let i = 0; i < vector.length; i++) {
    if (i > 0) out += ',';
    const value = vector[i];
    out += value === 0 ? '0' : value.toPrecision(7);
  }
  return `${out}]`;
}
