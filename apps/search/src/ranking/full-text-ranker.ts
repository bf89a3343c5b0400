import { Injectable } from '@nestjs/common';
import { explainPage } from './search-ranker';
import type { RankedPage, SearchRanker } from './search-ranker';
import { ListingService } from './listing.service';
import type { RankingRequest } from '../request/listing-request';

/**
 * Search by full text alone: records matching the query at or above the `tsvectorFloor`, in the
 * text side's order (concept coverage, then text score, then id). `_relevance_score` is the text
 * side of RRF with full weight, 1 / (k + rank);
 * `semantic_score` is 0 (there is no query embedding). Answers are marked `X-Search-Fallback:
 * fulltext`: the hybrid ranker answers with it when the embedding service is unavailable and
 * SEARCH_FULLTEXT_FALLBACK is on.
 */
@Injectable()
export class FullTextRanker implements SearchRanker {
  constructor(private readonly listing: ListingService) {}

  async rank(request: RankingRequest): Promise<RankedPage> {
    const listed = await this.listing.listByText(request);
    const { total, rows, facets } = listed;
    const { k } = request.tuning;
    const ranked = rows.map((row) => ({
      ...row,
      _relevance_score: 1 / (k + (row.position ?? 0)),
      semantic_score: 0,
      tsvector_score: row.tsvector_score ?? 0,
    }));
    return {
      total,
      ...(facets ? { facets } : {}),
      fallback: 'fulltext',
      // explain mode: the text side alone, at full weight (w 0)
      rows: explainPage(listed, request, ranked, (row) => ({
        vectorWeight: 0,
        k,
        semanticRank: null,
        textRank: row.position ?? null,
      })),
    };
  }
}
