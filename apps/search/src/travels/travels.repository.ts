import { Inject, Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../database/database-runtime';
import { splitPage } from '@rt/database';
import type { Sql } from '@rt/database';
import { AppError, ErrorCode } from '@rt/errors';
import { QueryAnalysisService } from '../text-index/query-analysis.service';
import type { QueryTerm } from '../text-index/query-terms';
import { TextIndexService } from '../text-index/text-index.service';
import { explainTerms, queryConceptsOf } from '../text-index/text-explain';
import type { ExplainTermRow, QueryConcept } from '../text-index/text-explain';
import { retryOnceOnInternalError } from './internal-error-retry';
import type { TextIndex } from '../text-index/text-index';
import { MemoryListing } from './memory-listing';
import { PgvectorSessions } from './pgvector-sessions';
import type { SessionQuery } from './pgvector-sessions';
import { filterListingSql } from './sql/filter-listing';
import type { ListingResult, ListingRow } from './listing-row';
import type { FilterRequest, RankingRequest } from './travels-request';

export type { ListingResult, ListingRow };

export type { ExplainTermRow, QueryConcept };

/** Explain mode: the terms each record of a page holds, and the search's concepts and language. */
export interface ExplainedTerms {
  rows: ExplainTermRow[];
  concepts: QueryConcept[];
  language: 'fr' | 'de' | 'en' | 'it' | null;
}

/**
 * Reads the index: filter-only listings from `travel_offers` (raw SQL built in sql/: see
 * sql/filter-conditions.ts for the indexes the filters use), searches through the replica's
 * in-memory text index and the statements of their semantic side and records (memory-listing.ts),
 * from the read database (DATABASE_READ_URL, else the primary).
 */
@Injectable()
export class TravelsRepository {
  constructor(
    @Inject(SEARCH_READER) private readonly dataSource: DataSource,
    @InjectPinoLogger(TravelsRepository.name) private readonly logger: PinoLogger,
    private readonly textIndex: TextIndexService,
    private readonly analysis: QueryAnalysisService,
    private readonly sessions: PgvectorSessions,
  ) {}

  /** A filter-only page and its exact total, from one snapshot. */
  listFiltered(request: FilterRequest): Promise<ListingResult> {
    return this.run(filterListingSql(request));
  }

  /** A full-text page (best score first) and its exact total, scored in memory (memory-listing.ts). */
  listByText(request: RankingRequest): Promise<ListingResult> {
    return this.inMemory(request, (index, terms) =>
      new MemoryListing(index, (sql) => this.rows(sql)).byText(request, terms),
    );
  }

  /**
   * A listing scored in the in-memory text index (memory-listing.ts), analysed against that
   * index; when a statement reads another generation than the index's (a reindex committed and
   * this replica has not loaded it yet), the new generation is loaded and the listing runs again,
   * so a page never mixes two catalogues. `list` holds no connection once it answers: the load
   * needs one (the embedded database has only one). A catalogue changing faster than a replica
   * loads it answers 503 `service_unavailable` after three tries.
   */
  private async inMemory(
    request: RankingRequest,
    list: (index: TextIndex, terms: QueryTerm[]) => Promise<ListingResult | undefined>,
  ): Promise<ListingResult> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const index = await this.textIndex.loaded();
      const listed = await list(index, await this.analysis.termsOf(request, index));
      if (listed) return listed;
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

  private async rows(
    sql: Sql,
    query: (text: string, values: unknown[]) => Promise<unknown> = (text, values) =>
      this.dataSource.query(text, values),
  ): Promise<Record<string, unknown>[]> {
    return (await query(sql.text, sql.values)) as Record<string, unknown>[];
  }

  /**
   * A hybrid page (RRF of the semantic and text sides) and its exact total: the text side in
   * memory and two statements (the semantic side, the page's records: memory-listing.ts), on a
   * connection whose session carries the pgvector settings. `embedding`: the query's, in
   * pgvector's text form.
   */
  listHybrid(request: RankingRequest, embedding: string): Promise<ListingResult> {
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

  private hybridOnce(request: RankingRequest, embedding: string): Promise<ListingResult> {
    return this.inMemory(request, (index, terms) =>
      this.inSearchSession(request, (query) =>
        new MemoryListing(index, (sql) => this.rows(sql, query)).hybrid(request, terms, embedding),
      ),
    );
  }

  /**
   * Runs `work` on a connection whose session carries the pgvector settings (PgvectorSessions); a
   * search with an empty semantic side (`rrfVectorWeight` 0) scans no HNSW index and takes any
   * connection of the pool.
   */
  private inSearchSession<T>(request: RankingRequest, work: (query: SessionQuery) => Promise<T>): Promise<T> {
    if (request.tuning.rrfVectorWeight === 0) {
      return work((text, values) => this.dataSource.query(text, values));
    }
    return this.sessions.run(request.tuning, work);
  }

  /**
   * Explain mode: the query terms each offer of a ranked page holds, with their parts, read from
   * the in-memory text index (text-explain.ts) after the page was ranked (a new generation loaded in
   * between may make them disagree with it: the page's own scores stay those it was ranked by).
   */
  async explainTerms(request: RankingRequest, ids: string[]): Promise<ExplainedTerms> {
    const language = request.expansion.language?.language ?? null;
    if (!ids.length) return { rows: [], concepts: [], language };
    const index = await this.textIndex.loaded();
    const terms = await this.analysis.termsOf(request, index);
    return {
      rows: explainTerms(index, terms, request.search, ids),
      concepts: queryConceptsOf(terms, request.search),
      language,
    };
  }

  /** Runs a page-with-total statement (`pageWithTotalSql`): the page's rows and the total. */
  private async run(sql: Sql): Promise<ListingResult> {
    type Row = Omit<ListingRow, 'id'> & { id: string | null; total: number };
    const rows = (await this.dataSource.query(sql.text, sql.values)) as Row[];
    const { items, total } = splitPage(rows, ({ total: _total, ...row }) => row as ListingRow);
    return { total, rows: items };
  }
}
