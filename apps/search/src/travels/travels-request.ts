import { FUSION_DEFAULTS } from '../config';
import type { SearchConfig } from '../config';
import { COMPOUND_PART_WEIGHT, NO_EXPANSION } from '../glossary/query-expander';
import type { ExpansionKind, QueryExpansion } from '../glossary/query-expander';
import type { DateRange } from './date-ranges';
import { parseDateRanges } from './date-ranges';
import type { InfoDensity, OrderBy, OrderDirection, TravelsQueryDto } from './dto/travels-query.dto';

/** The filters of GET /travels, parsed (docs/decisions.md D-49). */
export interface ListingFilters {
  /** ISO-2, upper case. */
  destination?: string;
  categories?: string[];
  dateRanges?: DateRange[];
  hideInvalid?: boolean;
  discountClub?: boolean;
  seaside?: boolean;
}

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
  /** Full-text rank (`ts_rank_cd`) minimum of the text side. */
  tsvectorFloor: number;
  /** `k` of RRF. */
  k: number;
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

export type ExpansionWeights = Record<ExpansionKind, number>;

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
  direction: OrderDirection;
}

/** The ranked branch of GET /travels (a non-blank search), complete: every default is resolved. */
export interface RankingRequest {
  branch: 'search';
  /** Trimmed, never blank. */
  search: string;
  /** What the glossary (and operator synonyms) make of the search, computed in memory. */
  expansion: QueryExpansion;
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
}

export type TravelsRequest = FilterRequest | RankingRequest;

const DEFAULT_PAGE_SIZE = 8;

/**
 * The validated query of GET /travels as one request, with its defaults (page, size, density,
 * direction, and the ranking's from the configuration) resolved here and nowhere else. The
 * configuration is read per request, so a change to it applies to the next one.
 */
export function toTravelsRequest(
  query: TravelsQueryDto,
  config: SearchConfig,
  expand: (search: string) => QueryExpansion = () => NO_EXPANSION,
): TravelsRequest {
  const filters = toFilters(query);
  const number = query.page ?? 1;
  const size = query.size ?? DEFAULT_PAGE_SIZE;
  const page: ListingPage = { number, limit: size, offset: (number - 1) * size };
  const density: InfoDensity = query.infoDensity ?? 'full';
  const search = query.search?.trim();
  const countLimit = config.SEARCH_TOTAL_EXACT_LIMIT > 0 ? config.SEARCH_TOTAL_EXACT_LIMIT + 1 : undefined;
  if (!search) {
    return {
      branch: 'filter',
      filters,
      page,
      density,
      countLimit,
      orderBy: query.orderBy,
      direction: query.orderDirection ?? 'asc',
    };
  }
  return {
    branch: 'search',
    search,
    expansion: expand(search),
    filters,
    page,
    density,
    tuning: rankingTuningOf(query, config),
    countLimit,
    ...(query.explain === true ? { explain: true } : {}),
  };
}

/** The ranking knobs of a query, each defaulting to its SEARCH_* setting (`{}`: the defaults alone). */
export function rankingTuningOf(
  query: Pick<TravelsQueryDto, 'rrfVectorWeight' | 'semanticFloor' | 'tsvectorFloor'>,
  config: SearchConfig,
): RankingTuning {
  return {
    rrfVectorWeight:
      query.rrfVectorWeight ??
      config.SEARCH_RRF_VECTOR_WEIGHT ??
      FUSION_DEFAULTS[config.EMBEDDING_PROVIDER].rrfVectorWeight,
    semanticFloor:
      query.semanticFloor ??
      config.SEARCH_SEMANTIC_FLOOR ??
      FUSION_DEFAULTS[config.EMBEDDING_PROVIDER].semanticFloor,
    // a floor the query gives is the client's, for every search
    noMatchSemanticFloor:
      query.semanticFloor ??
      config.SEARCH_NO_MATCH_SEMANTIC_FLOOR ??
      FUSION_DEFAULTS[config.EMBEDDING_PROVIDER].noMatchSemanticFloor,
    tsvectorFloor: query.tsvectorFloor ?? config.SEARCH_TSVECTOR_FLOOR,
    k: config.SEARCH_RRF_K,
    semanticCandidates: config.SEARCH_SEMANTIC_CANDIDATES,
    spellingNeighbourMaxDocuments: config.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS,
    hnsw: {
      efSearch: config.SEARCH_HNSW_EF_SEARCH,
      iterativeScan: 'relaxed_order',
      maxScanTuples: config.SEARCH_HNSW_MAX_SCAN_TUPLES,
    },
    fullTextFallback: config.SEARCH_FULLTEXT_FALLBACK,
    expansionWeights: {
      glossary: config.SEARCH_GLOSSARY_WEIGHT,
      synonym: config.SEARCH_SYNONYM_WEIGHT,
      compound: COMPOUND_PART_WEIGHT,
      narrower: config.SEARCH_NARROWER_WEIGHT,
      place: config.SEARCH_PLACE_WEIGHT,
      within: config.SEARCH_PLACE_WITHIN_WEIGHT,
    },
  };
}

/** The validated query's filters (docs/decisions.md D-49). */
function toFilters(query: TravelsQueryDto): ListingFilters {
  const dates = query.dates ? parseDateRanges(query.dates) : undefined;
  return {
    destination: query.destination?.toUpperCase(),
    categories: query.category,
    dateRanges: dates?.ok ? dates.ranges : undefined,
    hideInvalid: query.hide_invalid === true ? true : undefined,
    discountClub: query.discountclub,
    seaside: query.seaside,
  };
}
