import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../database/database-runtime';
import { hnswSessionSettingsSql } from '../sql/hnsw-session-settings';
import type { HnswSettings } from '../sql/hnsw-session-settings';
import type { RankingTuning } from '../request/listing-request';

/** Runs one statement on the connection at hand. */
export type SessionQuery = (text: string, values: unknown[]) => Promise<unknown>;

/**
 * The sessions the hybrid searches run on (apps/search/README.md, "Hybrid ranking"): each pooled
 * connection's session carries the pgvector settings of the search (given once per connection, and
 * again when they change), and only those the installed pgvector has, read once from the
 * extension's version. HybridListing runs a search's statements on them when its semantic side is the
 * statement.
 */
@Injectable()
export class PgvectorSessions {
  /** The settings each pooled connection's session carries (keyed by the pg client). */
  private readonly sessionSettings = new WeakMap<object, string>();
  private vectorVersion?: Promise<number[]>;

  constructor(@Inject(SEARCH_READER) private readonly dataSource: DataSource) {}

  /**
   * Runs `work` on a connection whose session carries the settings of `tuning`, released
   * afterwards.
   */
  async run<T>(tuning: RankingTuning, work: (query: SessionQuery) => Promise<T>): Promise<T> {
    const settings = hnswSessionSettingsSql(await this.settingsOf(tuning));
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // The pg client under the query runner (TypeORM keeps it protected; stable since 0.2): what
      // identifies a pooled connection, and so its session.
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
   * The settings this server's pgvector has (ef_search since 0.5, iterative scans and
   * max_scan_tuples since 0.8), read once from the installed extension version; an older pgvector
   * gets ef_search raised to the candidate count (without iterative scans an index scan returns at
   * most ef_search rows).
   */
  private async settingsOf(tuning: RankingTuning): Promise<HnswSettings> {
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
}
