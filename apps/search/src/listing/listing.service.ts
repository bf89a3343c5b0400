import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { RankingRequest } from '../request/listing-request';
import { QueryAnalysisService } from '../text-index/query-analysis.service';
import type { QueryTerm } from '../text-index/query-terms';
import { explainTerms, queryConceptsOf } from '../text-index/text-explain';
import type { ExplainTermRow, QueryConcept } from '../text-index/text-explain';
import type { TextIndex } from '../text-index/text-index';
import { TextIndexService } from '../text-index/text-index.service';
import { SearchMetrics } from '../metrics/search-metrics';
import { HybridListing } from './hybrid-listing';
import { retryOnceOnInternalError, retryWhileGenerationChanges } from './internal-error-retry';
import type { RunSql } from './listing-page';
import type { GenerationChanged, ListingResult } from './listing-row';
import { languagePreferenceOf, MemoryListing } from './memory-listing';
import { TravelsRepository } from './travels.repository';

/** Explain mode: the terms each record of a page holds, and the search's concepts and language. */
export interface ExplainedTerms {
  rows: ExplainTermRow[];
  concepts: QueryConcept[];
  language: 'fr' | 'de' | 'en' | 'it' | null;
  /** The search's words that matched no form (QueryAnalyser.unmatchedWords), in query order. */
  unmatchedWords: string[];
}

/**
 * The ranked listings of a search: analysed against the replica's in-memory text index, scored there
 * and fused with the semantic side (memory-listing.ts, semantic-side.ts), whose statements
 * TravelsRepository runs; the listing's retries (internal-error-retry.ts) are applied here.
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
  listByText(request: RankingRequest): Promise<ListingResult> {
    return this.inMemory(request, (index, terms, counted) =>
      new MemoryListing(index, counted(this.travels.rowsOf)).byText(request, terms),
    );
  }

  /**
   * A hybrid page (RRF of the semantic and text sides) and its exact total: the text side in
   * memory, the semantic side where D-75 says (HybridListing). `embedding`: the query's. The
   * semantic side's statement is the one that scans the HNSW index: an internal database error gets
   * the listing one more try (retryOnceOnInternalError), on a connection of its own.
   */
  listHybrid(request: RankingRequest, embedding: Float32Array): Promise<ListingResult> {
    return retryOnceOnInternalError(
      () =>
        this.inMemory(request, (index, terms, counted) =>
          this.hybrid.listAgainst(request, index, terms, embedding, counted),
        ),
      (error) => this.reportInternalError(error),
    );
  }

  /**
   * A listing scored in the in-memory text index (memory-listing.ts), analysed against that index,
   * tried again on the new generation while its statements read another one
   * (retryWhileGenerationChanges); `list` runs its statements through `counted`, which counts them
   * into search_statements_per_search.
   */
  private async inMemory(
    request: RankingRequest,
    list: (
      index: TextIndex,
      terms: QueryTerm[],
      counted: (run: RunSql) => RunSql,
    ) => Promise<ListingResult | GenerationChanged>,
  ): Promise<ListingResult> {
    let statements = 0;
    const counted =
      (run: RunSql): RunSql =>
      (sql) => {
        statements++;
        return run(sql);
      };
    try {
      return await retryWhileGenerationChanges(
        async () => {
          const index = await this.textIndex.loaded();
          return list(index, await this.analysis.termsOf(request, index), counted);
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

  /**
   * Explain mode: the query terms each offer of a ranked page holds, with their parts, read from
   * the in-memory text index (text-explain.ts) after the page was ranked (a new generation loaded in
   * between may make them disagree with it: the page's own scores stay those it was ranked by).
   */
  async explainTerms(request: RankingRequest, ids: string[]): Promise<ExplainedTerms> {
    const language = request.expansion.language?.language ?? null;
    if (!ids.length) return { rows: [], concepts: [], language, unmatchedWords: [] };
    const index = await this.textIndex.loaded();
    const { terms, unmatchedWords } = await this.analysis.analysisOf(request, index);
    return {
      rows: explainTerms(index, terms, request.search, ids, languagePreferenceOf(request)),
      concepts: queryConceptsOf(terms, request.search),
      language,
      unmatchedWords,
    };
  }
}
