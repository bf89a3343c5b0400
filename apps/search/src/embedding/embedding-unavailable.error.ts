/**
 * The embedding service cannot answer: unreachable, too slow, a 5xx (or 429) after the retries, a
 * malformed answer, or the circuit breaker is open. Thrown by every embedding provider; the search
 * branch turns it into 503 `embedding_unavailable` (or a full-text answer when
 * SEARCH_FULLTEXT_FALLBACK is on), a reindex into a failed run.
 */
export class EmbeddingUnavailableError extends Error {
  override readonly name = 'EmbeddingUnavailableError';

  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
