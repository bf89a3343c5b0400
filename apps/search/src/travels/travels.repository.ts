import { Inject, Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import type { CatalogueRecord } from '../catalogue/catalogue-record';
import { SEARCH_READER } from '../database/database-runtime';
import { AppError, ErrorCode } from '@rt/errors';
import { QueryAnalysisService } from '../text-index/query-analysis.service';
import type { QueryTerm } from '../text-index/query-terms';
import { TextIndexService } from '../text-index/text-index.service';
import { HnswSettings, hnswSettingsSql, hybridListingSql } from './hybrid-listing.sql';
import { retryOnceOnInternalError } from './internal-error-retry';
import type { TextIndex } from '../text-index/text-index';
import { MemoryListing } from './memory-listing';
import { firstTextStrategy } from './text-side.sql';
import type { SqlTextStrategy } from './text-side.sql';
import { explainTermsSql } from './explain.sql';
import { filterListingSql, Sql, textListingSql } from './travel-listing.sql';
import type { FilterRequest, RankingRequest, RankingTuning } from './travels-request';

/** A row of a listing; which columns are set depends on the density. */
export interface ListingRow {
  id: string;
  name?: string;
  slug?: string;
  description?: string | null;
  rating?: number | null;
  next_departure?: string | null;
  destination_name?: string | null;
  discount_club?: boolean;
  is_valid?: boolean;
  categories?: string[];
  departure_dates?: string[];
  record?: CatalogueRecord;
  tsvector_score?: number;
  semantic_score?: number;
  _relevance_score?: number;
  position?: number;
  /** Explain mode, hybrid: the record's rank on the semantic side (null: not on it). */
  semantic_rank?: number | null;
  /** Explain mode, hybrid: the record's rank on the text side (null: not ranked on it). */
  text_rank?: number | null;
}

/** A row of the explain mode's statement (explain.sql.ts): one query term an offer of the page holds. */
export interface ExplainTermRow {
  id: string;
  /** The query word's number in travel_query_terms (`i`, `-i` a compound's second part, `1000 + i` a pair). */
  word: number;
  /** The query word (or pair of words) folded, as the text side split the search. */
  token: string | null;
  term: string;
  kind: string;
  weight: number;
  /** The term's part of the score, times 1e6 (an integer). */
  part: number;
  /** Whether the term is its word's best form for this offer (the one that counts). */
  best: boolean;
  /** Whether the query selects the offer (else its text score is 0). */
  matches: boolean;
  /** The share of the query the offer covers, at most 1 (the score's multiplier). */
  coverage: number;
  /** The offer's text score, as the text side computes it. */
  score: number;
  /** part / 1e6 × coverage: the term's share of the score when it counts. */
  contribution: number;
}

export interface ListingResult {
  total: number;
  rows: ListingRow[];
  /** Ranked listings: false when a top-k statement could not prove its page exact. */
  exact?: boolean;
}

/**
 * Reads the index (`travel_offers`, raw SQL: see travel-listing.sql.ts for the indexes each
 * statement uses), from the read database (DATABASE_READ_URL, else the primary).
 */
@Injectable()
export class TravelsRepository {
  constructor(
    @Inject(SEARCH_READER) private readonly dataSource: DataSource,
    @InjectPinoLogger(TravelsRepository.name) private readonly logger: PinoLogger,
    private readonly textIndex: TextIndexService,
    private readonly analysis: QueryAnalysisService,
  ) {}

  /** A filter-only page and its exact total, from one snapshot. */
  listFiltered(request: FilterRequest): Promise<ListingResult> {
    return this.run(filterListingSql(request));
  }

  /**
   * A full-text page (best rank first) and its exact total, from one snapshot: with the `top`
   * strategy from each term's best postings when that provably gives the exhaustive page, else by
   * scoring every match (text-side.sql.ts).
   */
  async listByText(request: RankingRequest): Promise<ListingResult> {
    if (request.tuning.textStrategy === 'memory') {
      return this.inMemory(request, (index, terms) =>
        new MemoryListing(index, (sql) => this.rows(sql)).byText(request, terms),
      );
    }
    const terms = await this.termsOf(request);
    return this.rank(request, (strategy) => textListingSql(request, terms, strategy), this.run.bind(this));
  }

  /** The search's terms, analysed against the current text index. */
  private async termsOf(request: RankingRequest): Promise<QueryTerm[]> {
    return this.analysis.termsOf(request, await this.textIndex.loaded());
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
   * A hybrid page (RRF of the semantic and text sides) and its exact total: with the `memory`
   * strategy the text side in memory and two statements (the semantic side, the page's records:
   * memory-listing.ts), else one statement (hybrid-listing.sql.ts), on a connection whose session
   * carries the pgvector settings. `embedding`: the query's, in pgvector's text form.
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

  private async hybridOnce(request: RankingRequest, embedding: string): Promise<ListingResult> {
    if (request.tuning.textStrategy === 'memory') {
      return this.inMemory(request, (index, terms) =>
        this.inSearchSession(request, (query) =>
          new MemoryListing(index, (sql) => this.rows(sql, query)).hybrid(request, terms, embedding),
        ),
      );
    }
    const terms = await this.termsOf(request);
    const statement = (strategy: SqlTextStrategy) => hybridListingSql(request, terms, embedding, strategy);
    return this.inSearchSession(request, (query) =>
      this.rank(request, statement, (sql) => this.run(sql, query)),
    );
  }

  /**
   * Runs `work` on a connection whose session carries the pgvector settings (given once per
   * connection, and again when they change), released afterwards; a search with an empty semantic
   * side (`rrfVectorWeight` 0) scans no HNSW index and takes any connection of the pool.
   */
  private async inSearchSession<T>(
    request: RankingRequest,
    work: (query: (text: string, values: unknown[]) => Promise<unknown>) => Promise<T>,
  ): Promise<T> {
    if (request.tuning.rrfVectorWeight === 0) {
      return work((text, values) => this.dataSource.query(text, values));
    }
    const settings = hnswSettingsSql(await this.hnswSettings(request.tuning));
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // The pg client under the query runner (TypeORM keeps it protected; stable since 0.2).
      const connection = (runner as unknown as { databaseConnection: object }).databaseConnection;
      const wanted = JSON.stringify(settings ?? null);
      if (settings && this.sessionSettings.get(connection) !== wanted) {
        await runner.query(settings.text, settings.values);
        this.sessionSettings.set(connection, wanted);
      }
      return await work((text, values) => runner.query(text, values));
    } finally {
      await runner.release();
    }
  }

  /**
   * A ranked listing: the statement of its first text strategy (firstTextStrategy), then the
   * exhaustive one when a top-k statement cannot prove its page exact.
   */
  private async rank(
    request: RankingRequest,
    statement: (strategy: SqlTextStrategy) => Sql,
    run: (sql: Sql) => Promise<ListingResult>,
  ): Promise<ListingResult> {
    if (firstTextStrategy(request.tuning) === 'top') {
      const top = await run(statement('top'));
      if (top.exact) return top;
    }
    return run(statement('exhaustive'));
  }

  /**
   * Explain mode: the query terms each offer of a ranked page holds, with their parts, in one
   * statement (explain.sql.ts), run after the page's (a reindex committing in between may make
   * them disagree with it: the page's own scores stay those it was ranked by).
   */
  async explainTerms(request: RankingRequest, ids: string[]): Promise<ExplainTermRow[]> {
    if (!ids.length) return [];
    const { text, values } = explainTermsSql(request, await this.termsOf(request), ids);
    return (await this.dataSource.query(text, values)) as ExplainTermRow[];
  }

  /** The pgvector settings each pooled connection's session carries (keyed by the pg client). */
  private readonly sessionSettings = new WeakMap<object, string>();

  /**
   * The settings this server's pgvector has (ef_search since 0.5, iterative scans and
   * max_scan_tuples since 0.8), read once from the installed extension version; an older pgvector
   * gets ef_search raised to the candidate count (without iterative scans an index scan returns at
   * most ef_search rows).
   */
  private async hnswSettings(tuning: RankingTuning): Promise<HnswSettings> {
    this.vectorVersion ??= this.dataSource
      .query("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
      .then((rows: { extversion: string }[]) => (rows[0]?.extversion ?? '0').split('.').map(Number));
    const [major = 0, minor = 0] = await this.vectorVersion;
    const atLeast = (a: number, b: number) => major > a || (major === a && minor >= b);
    if (atLeast(0, 8)) {
      return {
        efSearch: tuning.hnsw.efSearch,
        iterativeScan: tuning.hnsw.iterativeScan,
        maxScanTuples: tuning.hnsw.maxScanTuples,
      };
    }
    if (atLeast(0, 5)) {
      return { efSearch: Math.min(1000, Math.max(tuning.hnsw.efSearch, tuning.semanticCandidates)) };
    }
    return {};
  }

  private vectorVersion?: Promise<number[]>;

  private async run(
    sql: Sql,
    query: (text: string, values: unknown[]) => Promise<unknown> = (text, values) =>
      this.dataSource.query(text, values),
  ): Promise<ListingResult> {
    type Row = ListingRow & { total: number; exact?: boolean; text_exhaustive?: boolean };
    const rows = (await query(sql.text, sql.values)) as (Row & { id: string | null })[];
    return {
      total: rows[0]?.total ?? 0,
      exact: rows[0]?.exact,
      rows: rows
        .filter((row): row is Row => row.id !== null)
        .map(({ total: _total, exact: _exact, text_exhaustive: _exhaustive, ...row }) => row),
    };
  }
}
