/**
 * Imported before `@lancedb/lancedb` (lancedb-peer.ts): LanceDB's native logger reads LANCEDB_LOG
 * once, when the module loads, and otherwise prints a deprecation warning for each sub-query of a
 * hybrid search that selects no scoring column (a hybrid search cannot select `_distance` and
 * `_score`: each side lacks the other's). Errors are still printed.
 */
process.env.LANCEDB_LOG ??= 'error';
