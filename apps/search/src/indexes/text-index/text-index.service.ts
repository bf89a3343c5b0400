import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import { DataSource } from 'typeorm';
import { SEARCH_DATABASE, SEARCH_READER } from '../../database/database-runtime';
import type { DatabaseRuntime } from '../../database/database-runtime';
import { SearchMetrics } from '../../metrics/search-metrics';
import { TextIndexSettings } from './text-index.settings';
import { loadTextIndex } from './text-index.loader';
import type { TextIndex } from './text-index';

/** Whether this process holds the text index (SearchRuntime.servesSearches; app.module.ts). */
export const HOLDS_TEXT_INDEX = Symbol('HOLDS_TEXT_INDEX');

/**
 * The replica's in-memory text index (apps/search/README.md, "The text index in memory"): loaded
 * from the read database at start (readiness waits for it), then again whenever the database holds
 * a newer generation (after this replica's own reindex at once; another replica's within
 * SEARCH_TEXT_INDEX_POLL_MS), built aside and swapped in whole, so a search reads one generation.
 * A search whose statements read another generation than the index's waits for that generation's
 * load and runs again (listing/listing.service.ts): a replica never mixes two catalogues. Every search
 * is analysed and scored against it.
 */
@Injectable()
export class TextIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TextIndex');
  private index?: TextIndex;
  private loading?: Promise<void>;
  private pollTimer?: NodeJS.Timeout;
  private stopped = false;
  private readonly loadedListeners: ((index: TextIndex) => void)[] = [];

  constructor(
    @Inject(SEARCH_READER) private readonly dataSource: DataSource,
    private readonly settings: TextIndexSettings,
    private readonly metrics: SearchMetrics,
    @Inject(HOLDS_TEXT_INDEX) private readonly holds: boolean,
    @Inject(SEARCH_DATABASE) private readonly database: DatabaseRuntime,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.holds) return;
    void this.refresh();
    // An embedded database has one session and one process on it: no other replica writes a
    // generation, this one reloads after its own reindex, and a poll would hold the only session.
    if (this.settings.SEARCH_TEXT_INDEX_POLL_MS > 0 && !this.database.singleSession) {
      this.pollTimer = setInterval(() => void this.refresh(), this.settings.SEARCH_TEXT_INDEX_POLL_MS);
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

  /**
   * Calls `listener` with each index swapped in from now on, and at once with the one held if any
   * (the vector index follows the text index's generations: vector-index.service.ts).
   */
  onLoaded(listener: (index: TextIndex) => void): void {
    this.loadedListeners.push(listener);
    if (this.index) listener(this.index);
  }

  /** Readiness: the index is loaded. */
  isReady(): boolean {
    return this.index !== undefined;
  }

  /**
   * The index, waiting for the first load when none is held yet (a search before readiness);
   * 503 `service_unavailable` when it cannot be loaded.
   */
  async loaded(): Promise<TextIndex> {
    if (!this.index) await this.refresh();
    if (!this.index) {
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The search index is loading; try again shortly.',
        undefined,
        undefined,
        {
          'Retry-After': '5',
        },
      );
    }
    return this.index;
  }

  /**
   * Loads the database's generation unless it is the one held; one load at a time (a call while
   * one runs waits for it, then checks again). A failed load keeps the index held and is logged;
   * the next poll tries again.
   */
  async refresh(): Promise<void> {
    if (this.stopped || !this.holds) return;
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
      const { index, fromBlocks, withPlaces, milliseconds } = await loadTextIndex(this.dataSource);
      if (this.stopped) return;
      this.index = index;
      this.metrics.textIndexBytes.set(index.bytes);
      this.metrics.textIndexLoadSeconds.set(milliseconds / 1000);
      this.metrics.textIndexLoads.inc({ result: 'succeeded' });
      this.logger.log(
        `Text index generation ${index.generation} loaded: ${index.offers} offers, ${index.postings.size} terms, ` +
          `${index.postingCount} postings, ${(index.bytes / 1048576).toFixed(1)} MiB in ${Math.round(milliseconds)} ms` +
          (fromBlocks ? '' : ' (from search_postings: the posting blocks are of another generation)') +
          (withPlaces
            ? `, ${index.places.placeStart[index.offers]} offer places, ${index.places.lat.length} points`
            : ' (no offer places: not written for this generation)'),
      );
      for (const listener of this.loadedListeners) listener(index);
    } catch (error) {
      if (this.stopped) return;
      this.metrics.textIndexLoads.inc({ result: 'failed' });
      this.logger.warn(
        { err: error },
        'Loading the text index failed; it is loaded again at the next poll or search',
      );
    }
  }
}
