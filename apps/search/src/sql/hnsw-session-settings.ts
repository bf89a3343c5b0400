import type { Sql } from '@rt/database';
import { SqlParams } from './sql-params';

/** pgvector settings of the hybrid searches (configuration: SEARCH_HNSW_*). */
export interface HnswSettings {
  efSearch?: number;
  iterativeScan?: 'off' | 'relaxed_order' | 'strict_order';
  maxScanTuples?: number;
}

/**
 * `SELECT set_config(name, value, false) …`: the settings for the session of one connection, in one
 * statement, given once per connection (PgvectorSessions), so that a search is one statement and
 * not a transaction of four. They only steer HNSW index scans, which nothing but the hybrid search
 * runs; the embedded database's one shared session gets them the same way. Only the settings the
 * server's pgvector has are given (PgvectorSessions decides which); none: no statement.
 */
export function hnswSessionSettingsSql(settings: HnswSettings): Sql | undefined {
  const pairs: [string, string][] = [];
  if (settings.efSearch !== undefined) pairs.push(['hnsw.ef_search', String(settings.efSearch)]);
  if (settings.iterativeScan !== undefined) pairs.push(['hnsw.iterative_scan', settings.iterativeScan]);
  if (settings.maxScanTuples !== undefined)
    pairs.push(['hnsw.max_scan_tuples', String(settings.maxScanTuples)]);
  if (!pairs.length) return undefined;
  const params = new SqlParams();
  const calls = pairs.map(([name, value]) => `set_config(${params.add(name)}, ${params.add(value)}, false)`);
  return params.sql(`SELECT ${calls.join(', ')}`);
}
