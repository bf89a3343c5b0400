import { Inject, Injectable } from '@nestjs/common';
import { QueryExpansionSettings } from '../../query/glossary/query-expansion.settings';
import { SearchMetrics } from '../../metrics/search-metrics';
import type { TravelListingResponseDto } from './dto/travel-listing.response';
import type { TravelsQueryDto } from './dto/travels-query.dto';
import { RankingSettings } from '../../ranking/ranking.settings';
import { SEARCH_RANKER } from '../../ranking/search-ranker';
import type { SearchRanker } from '../../ranking/search-ranker';
import { SearchLog } from './search-log';
import { FILTER_SCORES, toExplanation, toListingResponse, toTravelRecord } from './travels.mapper';
import type { CountedTotal } from './travels.mapper';
import { FilterListingService } from '../../ranking/filter-listing.service';
import { toTravelsRequest, travelsRequestSettings } from './travels-request';
import type { TravelsRequestSettings } from './travels-request';

export interface TravelListing {
  body: TravelListingResponseDto;
  /** `fulltext` when a search was answered by full text alone (`X-Search-Fallback`). */
  fallback?: 'fulltext';
}

/** The two branches of GET /travels: filter only (no search), or ranked (a non-blank search). */
@Injectable()
export class TravelsService {
  private readonly settings: TravelsRequestSettings;

  constructor(
    private readonly filterListing: FilterListingService,
    @Inject(SEARCH_RANKER) private readonly ranker: SearchRanker,
    private readonly metrics: SearchMetrics,
    private readonly searchLog: SearchLog,
    ranking: RankingSettings,
    expansion: QueryExpansionSettings,
  ) {
    this.settings = travelsRequestSettings(ranking, expansion);
  }

  async list(query: TravelsQueryDto): Promise<TravelListing> {
    const request = toTravelsRequest(query, this.settings);
    const { filters, page, density } = request;
    this.metrics.travelsRequests.inc({ branch: request.branch });
    const stop = this.metrics.travelsQueryDuration.startTimer({ branch: request.branch });

    if (request.branch === 'filter') {
      const { total, rows, facets } = await this.filterListing.list(request);
      stop();
      return {
        body: toListingResponse(
          countedTotal(total, request.countLimit),
          page.number,
          rows.map((row) => toTravelRecord(row, density, FILTER_SCORES)),
          facets,
        ),
      };
    }

    const ranked = await this.ranker.rank(request);
    stop();
    this.searchLog.write({
      search: request.search,
      destination: filters.destination ?? null,
      category: filters.categories ?? null,
      dates: query.dates ?? null,
      discountclub: filters.discountClub ?? null,
      seaside: filters.seaside ?? null,
      n_results: ranked.total,
    });
    return {
      body: toListingResponse(
        countedTotal(ranked.total, request.countLimit),
        page.number,
        ranked.rows.map((row) =>
          toTravelRecord(row, density, row, row.explain && toExplanation(row, row.explain)),
        ),
        ranked.facets,
      ),
      fallback: ranked.fallback,
    };
  }
}

/**
 * `totalRecords` and its relation (docs/decisions.md D-52, SEARCH_TOTAL_EXACT_LIMIT): a count that reached
 * `countLimit` (one past the bound) is answered as the bound, `gte`.
 */
export function countedTotal(total: number, countLimit?: number): CountedTotal {
  if (countLimit !== undefined && total >= countLimit) return { total: countLimit - 1, relation: 'gte' };
  return { total, relation: 'eq' };
}
