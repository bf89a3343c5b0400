import type { Sql } from '@rt/database';
import { plainToInstance } from 'class-transformer';
import type { SearchConfig } from '../config';
import { TravelsQueryDto } from '../http/travels/dto/travels-query.dto';
import { toTravelsRequest } from '../http/travels/travels-request';
import type { FilterRequest, RankingRequest } from '../request/listing-request';
import { filterListingSql, filterPageAtGenerationSql, filterPageSql } from '../sql/filter-listing';
import { hnswSessionSettingsSql } from '../sql/hnsw-session-settings';

// The statements of a GET /travels query in its query-string form (`{ destination: 'CH', size: '8' }`),
// built as the service builds them: the query read by TravelsQueryDto's own transforms, the same
// request (toTravelsRequest: defaults from `config`), the same builders. For the benchmark, which
// times them beside the HTTP answers, and the statement snapshots (cli/sql-snapshots.ts); the
// query is not validated (give valid ones). A search runs through MemoryListing (its text side in
// memory), whose statements are built from the request (`searchRequestOf`).

/** What the service runs for one filter-only GET /travels query, to be run directly. */
export interface FilterStatements {
  /**
   * The statement answering the query: its page and its exact total; with facets, its page and the
   * generation (the total and the facets are counted in memory: FilterListingService).
   */
  listing: Sql;
  /** The page alone, without its total. */
  page: Sql;
}

/** The statements of a filter-only query. */
export function filterStatementsOf(query: Record<string, string>, config: SearchConfig): FilterStatements {
  const request = filterRequestOf(query, config);
  return {
    listing: request.facets ? filterPageAtGenerationSql(request) : filterListingSql(request),
    page: filterPageSql(request),
  };
}

/**
 * The pgvector settings the service gives a connection's session before its first search (those of
 * pgvector ≥ 0.8; PgvectorSessions).
 */
export function searchSessionSql(query: Record<string, string>, config: SearchConfig): Sql | undefined {
  return hnswSessionSettingsSql(searchRequestOf(query, config).tuning.hnsw);
}

/** The request the service builds for a filter-only query (no `search`, or a blank one). */
export function filterRequestOf(query: Record<string, string>, config: SearchConfig): FilterRequest {
  const request = requestOf(query, config);
  if (request.branch !== 'filter') throw new Error(`${JSON.stringify(query)} is a search`);
  return request;
}

/** The request the service builds for a search in its query-string form (`search` set, non-blank). */
export function searchRequestOf(query: Record<string, string>, config: SearchConfig): RankingRequest {
  const request = requestOf(query, config);
  if (request.branch !== 'search') throw new Error(`${JSON.stringify(query)} is not a search`);
  return request;
}

function requestOf(query: Record<string, string>, config: SearchConfig) {
  return toTravelsRequest(plainToInstance(TravelsQueryDto, query), config);
}
