import type { Sql } from '@rt/database';
import type { RankingRequest } from '../request/listing-request';
import { pageRecordsSql } from '../sql/page-records';
import type { TextIndex } from '../indexes/text-index/text-index';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged, ListingRow } from './listing-row';

/** Runs a statement and returns its rows. */
export type RunSql = (sql: Sql) => Promise<Record<string, unknown>[]>;

/** The page a request asks for, cut out of a ranking (best first). */
export function pageOf<T>(ranked: readonly T[], page: RankingRequest['page']): T[] {
  return ranked.slice(page.offset, page.offset + page.limit);
}

/**
 * The records of a ranked page (`ordinals` of `index`), in page order, read by one statement
 * (sql/page-records.ts) with their `semantic_score` when `embedding` is given; GENERATION_CHANGED
 * when the database holds another generation than the index's.
 */
export async function readPageRecords(
  run: RunSql,
  index: TextIndex,
  request: RankingRequest,
  ordinals: readonly number[],
  embedding?: string,
): Promise<ListingRow[] | GenerationChanged> {
  const ids = ordinals.map((ordinal) => index.ids[ordinal]);
  const rows = await run(pageRecordsSql(request, ids, embedding));
  if (rows[0]?.generation !== index.generation) return GENERATION_CHANGED;
  const byId = new Map<string, ListingRow>();
  for (const { generation: _generation, ...row } of rows) {
    if (row.id !== null) byId.set(row.id as string, row as unknown as ListingRow);
  }
  const page = ids.map((id) => byId.get(id));
  // a record of the page missing: the catalogue changed under the same generation (cannot happen)
  if (page.some((row) => row === undefined)) return GENERATION_CHANGED;
  return page as ListingRow[];
}
