import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { AppError, ErrorCode } from '@rt/errors';
import type { AnalysedQuery } from '../analysis/analysed-query';
import type { RankingRequest } from '../request/listing-request';
import { QueryAnalysisService } from '../text-index/query-analysis.service';
import type { TextIndex } from '../text-index/text-index';
import { TextIndexService } from '../text-index/text-index.service';
import { SearchMetrics } from '../metrics/search-metrics';
import { VectorIndexService } from '../vector-index/vector-index.service';
import { retryOnceOnInternalError } from './internal-error-retry';
import type { ListingResult } from './listing-row';
import { MemoryListing } from './memory-listing';
import type { RunSql } from './memory-listing';
import { TravelsRepository } from './travels.repository';

/**
 * A listing with the analysed query it was scored by and the text index it was scored in: explain
 * reads them instead of analysing the search again.
 */
export interface AnalysedListing extends ListingResult {
  query: AnalysedQuery;
  index: TextIndex;
}

/**
 * The ranked listings of a search: analysed against the replica's in-memory text index, scored there
 * and fused with the semantic side (memory-listing.ts), whose statements TravelsRepository runs.
 */
@Injectable()
export class ListingService {
  constructor(
    private readonly travels: TravelsRepository,
    private readonly textIndex: TextIndexService,
    private readonly analysis: QueryAnalysisService,
    private readonly vectorIndex: VectorIndexService,
    private readonly metrics: SearchMetrics,
    @InjectPinoLogger(ListingService.name) private readonly logger: PinoLogger,
  ) {}

  /** A full-text page (best score first) and its exact total, scored in memory (memory-listing.ts). */
  listByText(request: RankingRequest): Promise<AnalysedListing> {
    return this.counted((run) =>
      this.inMemory(request, (index, query) =>
        new MemoryListing(index, run(this.travels.rowsOf)).byText(request, query),
      ),
    );
  }

  /**
   * A hybrid page (RRF of the semantic and text sides) and its exact total: the text side in
   * memory, the semantic side in memory when the replica holds the vectors of the text index's
   * generation (VectorIndexService), and one statement, the page's records; else two statements
   * (the semantic side, the page's records: memory-listing.ts), on a connection whose session
   * carries the pgvector settings. `embedding`: the query's.
   */
  listHybrid(request: RankingRequest, embedding: Float32Array): Promise<AnalysedListing> {
    // The one statement that scans the HNSW index: an internal error there gets one more try
    // (internal-error-retry.ts), on a connection of its own.
    return retryOnceOnInternalError(
      () => this.hybridOnce(request, embedding),
      (error) =>
        this.logger.warn(
          // The state and the server's message only: the error also carries the statement's parameters.
          { sqlstate: (error as { code?: unknown }).code, cause: (error as Error).message },
          'hybrid search met an internal database error; trying once more',
        ),
    );
  }

  private hybridOnce(request: RankingRequest, embedding: Float32Array): Promise<AnalysedListing> {
    return this.counted((count) =>
      this.inMemory(request, (index, query) => {
        const vectors = this.vectorIndex.forGeneration(index.generation);
        if (vectors || request.tuning.rrfVectorWeight === 0) {
          return new MemoryListing(index, count(this.travels.rowsOf), vectors).hybrid(
            request,
            query,
            embedding,
          );
        }
        return this.travels.inSearchSession(request.tuning, (run) =>
          new MemoryListing(index, count(run)).hybrid(request, query, embedding),
        );
      }),
    );
  }

  /** Runs `list`, its statements counted (wrapped by `count`) into search_statements_per_search. */
  private async counted<T>(list: (count: (run: RunSql) => RunSql) => Promise<T>): Promise<T> {
    let statements = 0;
    const count =
      (run: RunSql): RunSql =>
      (sql) => {
        statements++;
        return run(sql);
      };
    try {
      return await list(count);
    } finally {
      this.metrics.statementsPerSearch.observe(statements);
    }
  }

  /**
   * A listing scored in the in-memory text index (memory-listing.ts): the search read once
   * (QueryAnalysisService.read), analysed against that index; when a statement reads another generation than the index's (a reindex committed and
   * this replica has not loaded it yet), the new generation is loaded and the listing runs again,
   * so a page never mixes two catalogues. `list` holds no connection once it answers: the load
   * needs one (the embedded database has only one). A catalogue changing faster than a replica
   * loads it answers 503 `service_unavailable` after three tries.
   */
  private async inMemory(
    request: RankingRequest,
    list: (index: TextIndex, query: AnalysedQuery) => Promise<ListingResult | undefined>,
  ): Promise<AnalysedListing> {
    const reading = this.analysis.read(request.search);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const index = await this.textIndex.loaded();
      const query = await this.analysis.analyse(reading, request, index);
      const listed = await list(index, query);
      if (listed) return { ...listed, query, index };
      await this.textIndex.refresh();
    }
    throw new AppError(
      ErrorCode.ServiceUnavailable,
      'The search index is changing; try again shortly.',
      undefined,
      undefined,
      { 'Retry-After': '1' },
    );
  }
}
