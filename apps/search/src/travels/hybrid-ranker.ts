import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import { SEARCH_CONFIG } from '../config';
import type { SearchConfig } from '../config';
import { EMBEDDING_PROVIDER, toVectorLiteral } from '../embedding/embedding-provider';
import type { EmbeddingProvider } from '../embedding/embedding-provider';
import { EmbeddingUnavailableError } from '../embedding/embedding-unavailable.error';
import type { InfoDensity } from './dto/travels-query.dto';
import { FullTextRanker } from './full-text-ranker';
import type { RankedPage, RankingOptions, SearchRanker } from './search-ranker';
import type { ListingFilters, ListingPage } from './travel-listing.sql';
import { type HnswTuning, TravelsRepository } from './travels.repository';

/**
 * The hybrid ranking of a non-blank search (decisions.md, RRF): the query is embedded once (the
 * provider behind EMBEDDING_PROVIDER caches recent queries), then one SQL statement merges the
 * semantic and text sides (hybrid-listing.sql.ts). When the embedding service cannot answer: 503
 * `embedding_unavailable`, or with SEARCH_FULLTEXT_FALLBACK the full-text ranking marked
 * `X-Search-Fallback: fulltext`.
 */
@Injectable()
export class HybridRanker implements SearchRanker {
  constructor(
    private readonly travels: TravelsRepository,
    private readonly fullText: FullTextRanker,
    @Inject(EMBEDDING_PROVIDER) private readonly embeddings: EmbeddingProvider,
    @Inject(SEARCH_CONFIG) private readonly config: SearchConfig,
  ) {}

  async rank(
    search: string,
    filters: ListingFilters,
    page: ListingPage,
    density: InfoDensity,
    options: RankingOptions,
  ): Promise<RankedPage> {
    let embedding: Float32Array;
    try {
      embedding = await this.embeddings.embedQuery(search);
    } catch (error) {
      if (!(error instanceof EmbeddingUnavailableError)) throw error;
      if (this.config.SEARCH_FULLTEXT_FALLBACK) {
        return this.fullText.rank(search, filters, page, density, options);
      }
      throw new AppError(ErrorCode.EmbeddingUnavailable);
    }
    const { total, rows } = await this.travels.listHybrid(
      {
        search,
        embedding: toVectorLiteral(embedding),
        vectorWeight: options.rrfVectorWeight,
        semanticFloor: options.semanticFloor,
        tsvectorFloor: options.tsvectorFloor,
        k: options.k,
        candidates: this.config.SEARCH_SEMANTIC_CANDIDATES,
        spellingNeighbourMaxDocuments: this.config.SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS,
      },
      filters,
      page,
      density,
      hnswTuningOf(this.config),
    );
    return {
      total,
      rows: rows.map((row) => ({
        ...row,
        _relevance_score: row._relevance_score ?? 0,
        semantic_score: row.semantic_score ?? 0,
        tsvector_score: row.tsvector_score ?? 0,
      })),
    };
  }
}

/** How the hybrid searches use the HNSW index, from the configuration (the bench times the same). */
export function hnswTuningOf(config: SearchConfig): HnswTuning {
  return {
    efSearch: config.SEARCH_HNSW_EF_SEARCH,
    iterativeScan: 'relaxed_order',
    maxScanTuples: config.SEARCH_HNSW_MAX_SCAN_TUPLES,
  };
}
