import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import { EMBEDDING_PROVIDER } from '../embedding/embedding-provider';
import type { EmbeddingProvider } from '../embedding/embedding-provider';
import { EmbeddingUnavailableError } from '../embedding/embedding-unavailable.error';
import { FullTextRanker } from './full-text-ranker';
import { explainPage } from './search-ranker';
import type { RankedPage, SearchRanker } from './search-ranker';
import { ListingService } from './listing.service';
import type { RankingRequest } from '../request/listing-request';

/**
 * The hybrid ranking of a non-blank search (docs/decisions.md D-51): the query is embedded once (the
 * provider behind EMBEDDING_PROVIDER caches recent queries), then the text side scored in memory
 * and the semantic side (from memory or its statement, D-75: hybrid-listing.ts) are merged by RRF
 * (fuseRanks).
 * When the embedding service cannot answer: 503
 * `embedding_unavailable`, or with SEARCH_FULLTEXT_FALLBACK (`tuning.fullTextFallback`) the
 * full-text ranking marked `X-Search-Fallback: fulltext`.
 */
@Injectable()
export class HybridRanker implements SearchRanker {
  constructor(
    private readonly listing: ListingService,
    private readonly fullText: FullTextRanker,
    @Inject(EMBEDDING_PROVIDER) private readonly embeddings: EmbeddingProvider,
  ) {}

  async rank(request: RankingRequest): Promise<RankedPage> {
    let embedding: Float32Array;
    try {
      embedding = await this.embeddings.embedQuery(request.search);
    } catch (error) {
      if (!(error instanceof EmbeddingUnavailableError)) throw error;
      if (request.tuning.fullTextFallback) return this.fullText.rank(request);
      throw new AppError(ErrorCode.EmbeddingUnavailable);
    }
    // a search whose content words match nothing is embedded again without its function words
    // (memory-listing.ts, contentTextOf): "vvkqz the pwxmz" is not near "the Top of Europe"
    const embedContent = (text: string) =>
      this.embeddings.embedQuery(text).catch((error: unknown) => {
        if (error instanceof EmbeddingUnavailableError) return undefined;
        throw error;
      });
    const listed = await this.listing.listHybrid(request, embedding, embedContent);
    const { total, rows, facets } = listed;
    const ranked = rows.map((row) => ({
      ...row,
      _relevance_score: row._relevance_score ?? 0,
      semantic_score: row.semantic_score ?? 0,
      tsvector_score: row.tsvector_score ?? 0,
    }));
    return {
      total,
      ...(facets ? { facets } : {}),
      // explain mode: the ranks are those the fusion gave each record of the page (memory-listing.ts)
      rows: explainPage(listed, request, ranked, (row) => ({
        vectorWeight: request.tuning.rrfVectorWeight,
        k: request.tuning.k,
        semanticRank: row.semantic_rank ?? null,
        textRank: row.text_rank ?? null,
      })),
    };
  }
}
