import { COMPOUND_WEIGHT } from '../../query/analysis/compounds';
import { parseDateRanges } from '../../catalogue/date-ranges';
import type { QueryExpansionSettings } from '../../query/glossary/query-expansion.settings';
import type { InfoDensity, ListingPage, RankingTuning, TravelsRequest } from '../../request/listing-request';
import type { ListingFilters } from '../../request/listing-filters';
import type { TravelsQueryDto } from './dto/travels-query.dto';
import type { RankingSettings } from '../../ranking/ranking.settings';

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
export function toTravelsRequest(query: TravelsQueryDto, settings: TravelsRequestSettings): TravelsRequest {
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
      ...(query.facets ? { facets: query.facets } : {}),
    };
  }
  return {
    branch: 'search',
    search,
    filters,
    page,
    density,
    tuning: rankingTuningOf(query, settings),
    countLimit,
    ...(query.explain === true ? { explain: true } : {}),
    ...(query.facets ? { facets: query.facets } : {}),
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
    languagePreference: settings.SEARCH_LANGUAGE_PREFERENCE,
    placeCoverage: settings.SEARCH_PLACE_COVERAGE,
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
      related: settings.SEARCH_RELATED_WEIGHT,
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
