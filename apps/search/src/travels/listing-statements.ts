import { plainToInstance } from 'class-transformer';
import type { SearchConfig } from '../config';
import { toVectorLiteral } from '../embedding/embedding-provider';
import { QueryExpansionService } from '../glossary/query-expansion.service';
import { TravelsQueryDto } from './dto/travels-query.dto';
import { hnswSettingsSql, hybridListingSql } from './hybrid-listing.sql';
import { filterListingSql, filterPageSql, textListingSql } from './travel-listing.sql';
import type { Sql } from './travel-listing.sql';
import { firstTextStrategy } from './text-side.sql';
import { toTravelsRequest } from './travels-request';
import type { RankingRequest } from './travels-request';
import type { QueryTerm } from '../text-index/query-terms';

export type { Sql };

/** What the service runs for one GET /travels query, to be run directly. */
export interface ListingStatements {
  /**
   * The statement answering the query: its page and its exact total (searches with the `top` text
   * strategy: its top-k statement, which the service follows with the exhaustive one when it cannot
   * prove its page exact).
   */
  listing: Sql;
  /** Filter-only queries: the page alone, without its total. */
  page?: Sql;
  /**
   * Searches: the pgvector settings the service gives a connection's session before its first
   * search (those of pgvector ≥ 0.8; TravelsRepository.listHybrid).
   */
  session?: Sql;
  /** Searches: the text side alone, as the full-text ranking runs it (page and total). */
  textSide?: Sql;
}

/**
 * The statements of a GET /travels query in its query-string form (`{ search: 'Zermatt', size: '8' }`),
 * built as the service builds them: the query read by TravelsQueryDto's own transforms, the same
 * request (toTravelsRequest: defaults from `config`), the same builders. A search needs its query
 * embedding and its analysed terms (QueryAnalysisService), and gains the glossary's words as it
 * does. For the benchmark, which times them beside the HTTP answers; the query is not validated
 * (give valid ones).
 */
export function listingStatementsOf(
  query: Record<string, string>,
  config: SearchConfig,
  search?: { embedding: Float32Array; terms: QueryTerm[] },
): ListingStatements {
  const request = requestOf(query, config);
  if (request.branch === 'filter') {
    return { listing: filterListingSql(request), page: filterPageSql(request) };
  }
  if (!search) throw new Error(`the search "${request.search}" needs its query embedding and terms`);
  const strategy = firstTextStrategy(request.tuning);
  return {
    listing: hybridListingSql(request, search.terms, toVectorLiteral(search.embedding), strategy),
    session: hnswSettingsSql(request.tuning.hnsw),
    textSide: textListingSql(request, search.terms, strategy),
  };
}

/** The request the service builds for a search in its query-string form (`search` set, non-blank). */
export function searchRequestOf(query: Record<string, string>, config: SearchConfig): RankingRequest {
  const request = requestOf(query, config);
  if (request.branch !== 'search') throw new Error(`${JSON.stringify(query)} is not a search`);
  return request;
}

/** One expander per configuration: reading the glossary takes a third of a second. */
const expanders = new WeakMap<SearchConfig, QueryExpansionService>();

function requestOf(query: Record<string, string>, config: SearchConfig) {
  let expansions = expanders.get(config);
  if (!expansions) expanders.set(config, (expansions = new QueryExpansionService(config)));
  const expander = expansions;
  return toTravelsRequest(plainToInstance(TravelsQueryDto, query), config, (search) =>
    expander.expand(search),
  );
}
