import type { ListingRow } from './travels.repository';
import type { RankingRequest } from './travels-request';

export interface RankedRow extends ListingRow {
  _relevance_score: number;
  semantic_score: number;
  tsvector_score: number;
}

export interface RankedPage {
  total: number;
  rows: RankedRow[];
  /** Set when the answer is full text only (sent as `X-Search-Fallback`). */
  fallback?: 'fulltext';
}

/**
 * Ranks a non-blank search (the "search" branch of GET /travels). The module binds the hybrid
 * ranker (hybrid-ranker.ts: pgvector + full text merged by RRF), which keeps the full-text ranker
 * (full-text-ranker.ts) for its fallback. The request is complete (travels-request.ts resolves its
 * defaults): a ranker reads no configuration.
 */
export interface SearchRanker {
  rank(request: RankingRequest): Promise<RankedPage>;
}

export const SEARCH_RANKER = Symbol('SEARCH_RANKER');
