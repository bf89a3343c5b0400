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
