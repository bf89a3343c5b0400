import { AppError, ErrorCode } from '@rt/errors';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged } from './listing-row';

// The listing's retries, in one place: a read met an internal database error (once more), and a
// statement read another generation than the in-memory index's (the new one loaded, then again).

/**
 * SQLSTATE class XX (internal_error, data_corrupted, index_corrupted): what the server or an
 * extension raises on a bug rather than on the request. pgvector's HNSW index has had races between
 * its inserts, its vacuum and its scans that raised such errors for one statement (docs/reliability.md,
 * "The killed-reindex loop"); a read that meets one is worth one more try before a 500.
 */
export function isInternalDatabaseError(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const state = typeof code === 'string' ? code : driverError?.code;
  return typeof state === 'string' && /^XX[0-9A-Z]{3}$/.test(state);
}

/**
 * Runs a read; when it fails with an internal database error, reports it (`onRetry`) and runs it
 * once more. Any other error, or a second internal error, is thrown as is.
 */
export async function retryOnceOnInternalError<T>(
  read: () => Promise<T>,
  onRetry: (error: unknown) => void,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isInternalDatabaseError(error)) throw error;
    onRetry(error);
    return read();
  }
}

/** The tries of a listing whose statements keep reading a generation the replica has not loaded. */
export const GENERATION_TRIES = 3;

/**
 * Runs `list` (against the generation loaded at the time) until it answers without
 * GENERATION_CHANGED, `loadNewGeneration` awaited between tries; `list` holds no connection once it
 * answers, as the load needs one (the embedded database has only one). A catalogue changing faster
 * than a replica loads it answers 503 `service_unavailable` after GENERATION_TRIES tries.
 */
export async function retryWhileGenerationChanges<T>(
  list: () => Promise<T | GenerationChanged>,
  loadNewGeneration: () => Promise<void>,
): Promise<T> {
  for (let attempt = 1; attempt <= GENERATION_TRIES; attempt++) {
    const listed = await list();
    if (listed !== GENERATION_CHANGED) return listed;
    await loadNewGeneration();
  }
  throw new AppError(
    ErrorCode.ServiceUnavailable,
    'The search index is changing; try again shortly.',
    undefined,
    undefined,
    { 'Retry-After': '1' },
  );
}
