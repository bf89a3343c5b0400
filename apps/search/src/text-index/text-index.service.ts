import {
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_CONFIG } from '../config';
import type { SearchConfig } from '../config';
import { SEARCH_READER } from '../database/database-runtime';
import { SearchMetrics, SearchMetricsModule } from '../metrics/search-metrics';
import { loadTextIndex } from './text-index.loader';
import type { TextIndex } from './text-index';

/**
 * The replica's in-memory text index (apps/search/README.md, "The text index in memory"): loaded
 * from the read database at start (readiness waits for it), then again whenever the database holds
 * a newer generation (after this replica's own reindex at once; another replica's within
 * SEARCH_TEXT_INDEX_POLL_MS), built aside and swapped in whole, so a search reads one generation.
 * A search whose statements read another generation than the index's is answered by the SQL text
 * side instead (travels.repository.ts): a replica never mixes two catalogues.
 */
@Injectable()
export class TextIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TextIndex');
  private index?: TextIndex;
  private loading?: Promise<void>;
  private pollTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(SEARCH_READER) private readonly dataSource: DataSource,
    @Inject(SEARCH_CONFIG) private readonly config: SearchConfig,
    private readonly metrics: SearchMetrics,
  ) {}

  /** Whether searches are scored in memory (SEARCH_TEXT_STRATEGY `memory`). */
  get enabled(): boolean {
    return this.config.SEARCH_TEXT_STRATEGY === 'memory';
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    void this.refresh();
    if (this.config.SEARCH_TEXT_INDEX_POLL_MS > 0) {
      this.pollTimer = setInterval(() => void this.refresh(), this.config.SEARCH_TEXT_INDEX_POLL_MS);
      this.pollTimer.unref();
    }
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
  }

  /** The index searches are scored with, once loaded. */
  current(): TextIndex | undefined {
    return this.index;
  }

  /** Readiness: the index is loaded (or searches are not scored in memory). */
  isReady(): boolean {
    return !this.enabled || this.index !== undefined;
  }

  /**
   * Loads the database's generation unless it is the one held; one load at a time (a call while
   * one runs waits for it, then checks again). A failed load keeps the index held and is logged;
   * the next poll tries again.
   */
  async refresh(): Promise<void> {
    if (!this.enabled || this.stopped) return;
    while (this.loading) await this.loading;
    const loading = this.loadIfNewer().finally(() => {
      this.loading = undefined;
    });
    this.loading = loading;
    await loading;
  }

  private async loadIfNewer(): Promise<void> {
    try {
      const rows = (await this.dataSource.query(
        'SELECT generation::text AS generation FROM search_stats',
      )) as {
        generation: string;
      }[];
      const generation = rows[0]?.generation ?? '0';
      if (this.index?.generation === generation) return;
      const { index, milliseconds } = await loadTextIndex(this.dataSource);
      if (this.stopped) return;
      this.index = index;
      this.metrics.textIndexBytes.set(index.bytes);
      this.metrics.textIndexLoadSeconds.set(milliseconds / 1000);
      this.metrics.textIndexLoads.inc({ result: 'succeeded' });
      this.logger.log(
        `Text index generation ${index.generation} loaded: ${index.offers} offers, ${index.postings.size} terms, ` +
          `${index.postingCount} postings, ${(index.bytes / 1048576).toFixed(1)} MiB in ${Math.round(milliseconds)} ms`,
      );
    } catch (error) {
      if (this.stopped) return;
      this.metrics.textIndexLoads.inc({ result: 'failed' });
      this.logger.warn(
        { err: error },
        'Loading the text index failed; searches use the SQL text side until it loads',
      );
    }
  }
}

@Module({
  imports: [SearchMetricsModule],
  providers: [TextIndexService],
  exports: [TextIndexService],
})
export class TextIndexModule {}
