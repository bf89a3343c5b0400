import type { FacetField } from './listing-facets';
import type { ListingFilters } from './listing-filters';
import type { ExpansionWeights } from '../query/analysis/text-search';

// The request of GET /travels once parsed and complete (travels/travels-request.ts builds it from
// the query): what the SQL statements, the listing and the rankers read.

export const INFO_DENSITIES = ['min', 'card', 'search', 'full'] as const;
export type InfoDensity = (typeof INFO_DENSITIES)[number];
export const ORDER_BYS = ['rating', 'departure', 'duration'] as const;
export type OrderBy = (typeof ORDER_BYS)[number];
export const ORDER_DIRECTIONS = ['asc', 'desc'] as const;
export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];

export interface ListingPage {
  /** 1-based, as the response reports it. */
  number: number;
  limit: number;
  offset: number;
}

/** How the HNSW index is searched (configuration: SEARCH_HNSW_*). */
export interface HnswTuning {
  efSearch: number;
  iterativeScan: 'off' | 'relaxed_order' | 'strict_order';
  maxScanTuples: number;
}

/** How a search is ranked: the query's values, else the configuration's (SEARCH_*). */
export interface RankingTuning {
  /** `w` of RRF: the semantic side's weight; 0 empties the semantic side, 1 the text side. */
  rrfVectorWeight: number;
  /** Cosine similarity minimum of the semantic side. */
  semanticFloor: number;
  /**
   * The semantic side's minimum when no word of the search is found in any form by the text side
   * (at least `semanticFloor`): what a search of nonsense is kept from. A query's own
   * `semanticFloor` applies to every search.
   */
  noMatchSemanticFloor: number;
  /** The text score (`tsvector_score`) minimum of the text side. */
  tsvectorFloor: number;
  /** `k` of RRF. */
  k: number;
  /**
   * An offer written in the search's guessed language scores `1 + languagePreference` times more
   * (SEARCH_LANGUAGE_PREFERENCE; 0: no preference).
   */
  languagePreference: number;
  /**
   * Whether places are covered by where the offers are (SEARCH_PLACE_COVERAGE, D-88b); absent:
   * they are.
   */
  placeCoverage?: boolean;
  /** The semantic side takes at most this many nearest records (after the filters) from the index. */
  semanticCandidates: number;
  /**
   * The offers holding a lexeme close in spelling to a search word join the semantic candidates
   * when the lexeme is held by at most this many offers (0: none do).
   */
  spellingNeighbourMaxDocuments: number;
  hnsw: HnswTuning;
  /** When the embedding service is unavailable: a full-text answer (true) or 503 (false). */
  fullTextFallback: boolean;
  /** The weight of an expanded word of each kind (0: that kind is left out). */
  expansionWeights: ExpansionWeights;
}

/** The filter-only branch of GET /travels (no search, or a blank one). */
export interface FilterRequest {
  branch: 'filter';
  filters: ListingFilters;
  page: ListingPage;
  /** Count at most this many records (SEARCH_TOTAL_EXACT_LIMIT + 1: one past the bound); absent: all. */
  countLimit?: number;
  density: InfoDensity;
  /** Absent: id order. */
  orderBy?: OrderBy;
  /** The fields to count beside the page (D-81); absent: no facets, the answer as without them. */
  facets?: FacetField[];
  direction: OrderDirection;
}

/** The ranked branch of GET /travels (a non-blank search), complete: every default is resolved. */
export interface RankingRequest {
  branch: 'search';
  /** Trimmed, never blank: the analyzer reads it (text-index/query-analysis.service.ts). */
  search: string;
  filters: ListingFilters;
  page: ListingPage;
  /** Count at most this many records (SEARCH_TOTAL_EXACT_LIMIT + 1: one past the bound); absent: all. */
  countLimit?: number;
  density: InfoDensity;
  tuning: RankingTuning;
  /**
   * `explain=true`: each record also gets why it ranks where it does (apps/search/README.md,
   * "Explain mode"); absent or false: the statements and the answer are those without it.
   */
  explain?: boolean;
  /** The fields to count beside the page (D-81); absent: no facets, the answer as without them. */
  facets?: FacetField[];
}

export type TravelsRequest = FilterRequest | RankingRequest;
