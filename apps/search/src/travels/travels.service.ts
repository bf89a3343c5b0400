import { Inject, Injectable } from '@nestjs/common';
import { SEARCH_CONFIG } from '../config';
import type { SearchConfig } from '../config';
import { SearchMetrics } from '../metrics/search-metrics';
import { parseDateRanges } from './date-ranges';
import type { TravelListingResponseDto } from './dto/travel-listing.response';
import type { InfoDensity, TravelsQueryDto } from './dto/travels-query.dto';
import { SEARCH_RANKER } from './search-ranker';
import type { SearchRanker } from './search-ranker';
import { SearchLog } from './search-log';
import type { ListingFilters, ListingPage } from './travel-listing.sql';
import { FILTER_SCORES, toListingResponse, toTravelRecord } from './travels.mapper';
import { TravelsRepository } from './travels.repository';

export const DEFAULT_PAGE_SIZE = 8;

export interface TravelListing {
  body: TravelListingResponseDto;
  /** `fulltext` when a search was answered by full text alone (`X-Search-Fallback`). */
  fallback?: 'fulltext';
}

/** The two branches of GET /travels: filter only (no search), or ranked (a non-blank search). */
@Injectable()
export class TravelsService {
  constructor(
    private readonly travels: TravelsRepository,
    @Inject(SEARCH_RANKER) private readonly ranker: SearchRanker,
    private readonly metrics: SearchMetrics,
    private readonly searchLog: SearchLog,
    @Inject(SEARCH_CONFIG) private readonly config: SearchConfig,
  ) {}

  async list(query: TravelsQueryDto): Promise<TravelListing> {
    const filters = toFilters(query);
    const pageNumber = query.page ?? 1;
    const size = query.size ?? DEFAULT_PAGE_SIZE;
    const page: ListingPage = { limit: size, offset: (pageNumber - 1) * size };
    const density: InfoDensity = query.infoDensity ?? 'full';
    const search = query.search?.trim();

    if (!search) {
      this.metrics.travelsRequests.inc({ branch: 'filter' });
      const stop = this.metrics.travelsQueryDuration.startTimer({ branch: 'filter' });
      const { total, rows } = await this.travels.listFiltered(
        filters,
        { orderBy: query.orderBy, direction: query.orderDirection ?? 'asc' },
        page,
        density,
      );
      stop();
      return {
        body: toListingResponse(
          total,
          pageNumber,
          rows.map((row) => toTravelRecord(row, density, FILTER_SCORES)),
        ),
      };
    }

    this.metrics.travelsRequests.inc({ branch: 'search' });
    const stop = this.metrics.travelsQueryDuration.startTimer({ branch: 'search' });
    const ranked = await this.ranker.rank(search, filters, page, density, {
      rrfVectorWeight: query.rrfVectorWeight ?? this.config.SEARCH_RRF_VECTOR_WEIGHT,
      semanticFloor: query.semanticFloor ?? this.config.SEARCH_SEMANTIC_FLOOR,
      tsvectorFloor: query.tsvectorFloor ?? this.config.SEARCH_TSVECTOR_FLOOR,
      k: this.config.SEARCH_RRF_K,
    });
    stop();
    this.searchLog.write({
      search,
      destination: filters.destination ?? null,
      category: filters.categories ?? null,
      dates: query.dates ?? null,
      discountclub: filters.discountClub ?? null,
      seaside: filters.seaside ?? null,
      n_results: ranked.total,
    });
    return {
      body: toListingResponse(
        ranked.total,
        pageNumber,
        ranked.rows.map((row) => toTravelRecord(row, density, row)),
      ),
      fallback: ranked.fallback,
    };
  }
}

/** The validated query as filters (decisions.md, "Travel search service"). */
export function toFilters(query: TravelsQueryDto): ListingFilters {
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
