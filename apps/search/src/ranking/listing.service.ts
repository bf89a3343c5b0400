import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { AnalysedQuery } from '../query/analysis/analysed-query';
import type { EmbedContent } from './hybrid-listing';
import type { RankingRequest } from '../request/listing-request';
import { QueryAnalysisService } from '../indexes/text-index/query-analysis.service';
import type { TextIndex } from '../indexes/text-index/text-index';
import { TextIndexService } from '../indexes/text-index/text-index.service';
import { SearchMetrics } from '../metrics/search-metrics';
import { HybridListing } from './hybrid-listing';
import { retryOnceOnInternalError, retryWhileGenerationChanges } from './listing-retries';
import type { RunSql } from './listing-page';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged, ListingResult } from './listing-row';
import { MemoryListing } from './memory-listing';
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
 * and fused with the semantic side (memory-listing.ts, semantic-side.ts), whose statements
 * TravelsRepository runs; the listing's retries (listing-retries.ts) are applied here.
 */
@Injectable()
export class ListingService {
  constructor(
    private readonly travels: TravelsRepository,
    private readonly textIndex: TextIndexService,
    private readonly analysis: QueryAnalysisService,
    private readonly hybrid: HybridListing,
    private readonly metrics: SearchMetrics,
    @InjectPinoLogger(ListingService.name) private readonly logger: PinoLogger,
  ) {}

  /** A full-text page (best score first) and its exact total, scored in memory (memory-listing.ts). */
  listByText(request: RankingRequest): Promise<AnalysedListing> {
    return this.inMemory(request, (index, query, counted) =>
      new MemoryListing(index, counted(this.travels.rowsOf)).byText(request, query),
    );
  }

  /**
   * A hybrid page (RRF of the semantic and text sides) and its exact total: the text side in
   * memory, the semantic side where D-75 says (HybridListing). `embedding`: the query's. The
   * semantic side's statement is the one that scans the HNSW index: an internal database error gets
   * the listing one more try (retryOnceOnInternalError), on a connection of its own.
   */
  listHybrid(
    request: RankingRequest,
    embedding: Float32Array,
    embedContent?: EmbedContent,
  ): Promise<AnalysedListing> {
    return retryOnceOnInternalError(
      () =>
        this.inMemory(request, (index, query, counted) =>
          this.hybrid.listAgainst(request, index, query, embedding, counted, embedContent),
        ),
      (error) => this.reportInternalError(error),
    );
  }

  /**
   * A listing scored in the in-memory text index (memory-listing.ts): the search read once
   * (QueryAnalysisService.read), analysed against the loaded index, tried again on the new
   * generation while its statements read another one (retryWhileGenerationChanges); `list` runs
   * its statements through `counted`, which counts them into search_statements_per_search.
   */
  private async inMemory(
    request: RankingRequest,
    list: (
      index: TextIndex,
      query: AnalysedQuery,
      counted: (run: RunSql) => RunSql,
    ) => Promise<ListingResult | GenerationChanged>,
  ): Promise<AnalysedListing> {
    let statements = 0;
    const counted =
      (run: RunSql): RunSql =>
      (sql) => {
        statements++;
        return run(sql);
      };
    try {
      const reading = this.analysis.read(request.search);
      return await retryWhileGenerationChanges(
        async (): Promise<AnalysedListing | GenerationChanged> => {
          const index = await this.textIndex.loaded();
          const query = await this.analysis.analyse(reading, request, index);
          const listed = await list(index, query, counted);
          return listed === GENERATION_CHANGED ? listed : { ...listed, query, index };
        },
        () => this.textIndex.refresh(),
      );
    } finally {
      this.metrics.statementsPerSearch.observe(statements);
    }
  }

  private reportInternalError(error: unknown): void {
    this.logger.warn(
      // The state and the server's message only: the error also carries the statement's parameters.
      { sqlstate: (error as { code?: unknown }).code, cause: (error as Error).message },
      'hybrid search met an internal database error; trying once more',
    );
  }
}
