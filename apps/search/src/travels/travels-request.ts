import { COMPOUND_WEIGHT } from '../analysis/compounds';
import { NO_EXPANSION } from '../glossary/query-expander';
import type { ExpansionKind, QueryExpansion } from '../glossary/query-expander';
import type { QueryExpansionSettings } from '../glossary/query-expansion.settings';
import type { DateRange } from './date-ranges';
import { parseDateRanges } from './date-ranges';
import type { InfoDensity, OrderBy, OrderDirection, TravelsQueryDto } from './dto/travels-query.dto';
import type { RankingSettings } from './ranking.settings';

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

/** What a request reads of the configuration: the ranking's settings and the query expansion's weights. */
export type TravelsRequestSettings = RankingSettings & QueryExpansionSettings;

/**
 * The two sections a request reads, as the one object they are: every section is given the
 * service's one configuration object (sectionProviders, app.module.ts).
 */
export function travelsRequestSettings(
  ranking: RankingSettings,
  expansion: QueryExpansionSettings,
): TravelsRequestSettings {
  if ((ranking as object) !== expansion) {
    throw new Error('RankingSettings and QueryExpansionSettings must be the one configuration object');
  }
  return ranking as TravelsRequestSettings;
}

/**
 * The validated query of GET /travels as one request, with its defaults (page, size, density,
 * direction, and the ranking's from the configuration) resolved here and nowhere else. The
 * configuration is read per request, so a change to it applies to the next one.
 */
export function toTravelsRequest(
  query: TravelsQueryDto,
  settings: TravelsRequestSettings,
  expand: (search: string) => QueryExpansion = () => NO_EXPANSION,
): TravelsRequest {
  const filters = toFilters(query);
  const number = query.page ?? 1;
  const size = query.size ?? DEFAULT_PAGE_SIZE;
  const page: ListingPage = { number, limit: size, offset: (number - 1) * size };
  const density: InfoDensity = query.infoDensity ?? 'full';
  const search = query.search?.trim();
  const countLimit =
    settings.SEARCH_TOTAL_EXACT_LIMIT > 0 ? settings.SEARCH_TOTAL_EXACT_LIMIT + 1 : undefined;
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
    tuning: rankingTuningOf(query, settings),
    countLimit,
    ...(query.explain === true ? { explain: true } : {}),
  };
}

/** The ranking knobs of a query, each defaulting to its SEARCH_* setting (`{}`: the defaults alone). */
export function rankingTuningOf(
  query: Pick<TravelsQueryDto, 'rrfVectorWeight' | 'semanticFloor' | 'tsvectorFloor'>,
  settings: TravelsRequestSettings,
): RankingTuning {
  return {
    rrfVectorWeight:
      query.rrfVectorWeight ?? settings.SEARCH_RRF_VECTOR_WEIGHT ?? settings.fusionDefaults.rrfVectorWeight,
    semanticFloor:
      query.semanticFloor ?? settings.SEARCH_SEMANTIC_FLOOR ?? settings.fusionDefaults.semanticFloor,
    // a floor the query gives is the client's, for every search
    noMatchSemanticFloor:
      query.semanticFloor ??
      settings.SEARCH_NO_MATCH_SEMANTIC_FLOOR ??
      settings.fusionDefaults.noMatchSemanticFloor,
    tsvectorFloor: query.tsvectorFloor ?? settings.SEARCH_TSVECTOR_FLOOR,
    k: settings.SEARCH_RRF_K,
    semanticCandidates: settings.SEARCH_SEMANTIC_CANDIDATES,
    spellingNeighbourMaxDocuments: settings.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS,
    hnsw: {
      efSearch: settings.SEARCH_HNSW_EF_SEARCH,
      iterativeScan: 'relaxed_order',
      maxScanTuples: settings.SEARCH_HNSW_MAX_SCAN_TUPLES,
    },
    fullTextFallback: settings.SEARCH_FULLTEXT_FALLBACK,
    expansionWeights: {
      glossary: settings.SEARCH_GLOSSARY_WEIGHT,
      synonym: settings.SEARCH_SYNONYM_WEIGHT,
      compound: COMPOUND_WEIGHT,
      narrower: settings.SEARCH_NARROWER_WEIGHT,
      place: settings.SEARCH_PLACE_WEIGHT,
      within: settings.SEARCH_PLACE_WITHIN_WEIGHT,
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
