import { Injectable } from '@nestjs/common';
import type { InfoDensity } from './dto/travels-query.dto';
import type { RankedPage, RankingOptions, SearchRanker } from './search-ranker';
import type { ListingFilters, ListingPage } from './travel-listing.sql';
import { TravelsRepository } from './travels.repository';

/**
 * Search by full text alone: records matching the query at or above the `tsvectorFloor`, best
 * `ts_rank_cd` first. `_relevance_score` is the text side of RRF with full weight, 1 / (k + rank);
 * `semantic_score` is 0 (there is no query embedding). Answers are marked `X-Search-Fallback:
 * fulltext`: the hybrid ranker answers with it when the embedding service is unavailable and
 * SEARCH_FULLTEXT_FALLBACK is on.
 */
@Injectable()
export class FullTextRanker implements SearchRanker {
  constructor(private readonly travels: TravelsRepository) {}

  async rank(
    search: string,
    filters: ListingFilters,
    page: ListingPage,
    density: InfoDensity,
    options: RankingOptions,
  ): Promise<RankedPage> {
    const { total, rows } = await this.travels.listByText(
      { search, tsvectorFloor: options.tsvectorFloor },
      filters,
      page,
      density,
    );
    return {
      total,
      fallback: 'fulltext',
      rows: rows.map((row) => ({
        ...row,
        _relevance_score: 1 / (options.k + (row.position ?? 0)),
        semantic_score: 0,
        tsvector_score: row.tsvector_score ?? 0,
      })),
    };
  }
}
