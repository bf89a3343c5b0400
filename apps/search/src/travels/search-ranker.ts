import type { InfoDensity } from './dto/travels-query.dto';
import type { ListingFilters, ListingPage } from './travel-listing.sql';
import type { ListingRow } from './travels.repository';

/** The search branch's knobs: query values or their configured defaults (SEARCH_*). */
export interface RankingOptions {
  rrfVectorWeight: number;
  semanticFloor: number;
  tsvectorFloor: number;
  k: number;
}

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
 * (full-text-ranker.ts) for its fallback.
 */
export interface SearchRanker {
  rank(
    search: string,
    filters: ListingFilters,
    page: ListingPage,
    density: InfoDensity,
    options: RankingOptions,
  ): Promise<RankedPage>;
}

export const SEARCH_RANKER = Symbol('SEARCH_RANKER');
