import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../../database/database-runtime';
import { EmbeddingSettings } from '../../embedding/embedding.settings';
import { SearchMetrics } from '../../metrics/search-metrics';
import { HOLDS_TEXT_INDEX, TextIndexService } from '../text-index/text-index.service';
import type { TextIndex } from '../text-index/text-index';
import { VectorIndexSettings } from './vector-index.settings';
import { loadVectorIndex, vectorIndexLoadOptions } from './vector-index.loader';
import type { VectorIndex } from './vector-index';

/** How long after a failed load the vectors of the same text index are read again. */
const RETRY_AFTER_MS = 5_000;

/**
 * The replica's in-memory vector index (apps/search/README.md, "The vector side in memory"), with
 * SEARCH_VECTOR_INDEX=memory: loaded after each generation of the text index is swapped in
 * (TextIndexService.onLoaded), from the same database, and kept only when it holds that very
 * generation and the same offers in the same order; swapped in whole. Until the vectors of the text
 * index's generation are held (a reload takes a few seconds after the text index's), a search's
 * semantic side is the statement of sql/semantic-side.ts, as with SEARCH_VECTOR_INDEX=database:
 * never vectors of another catalogue. Readiness waits for the first load.
 */
@Injectable()
export class VectorIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('VectorIndex');
  private index?: VectorIndex;
  /** The newest text index whose vectors are still to load. */
  private wanted?: TextIndex;
  private loading?: Promise<void>;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(SEARCH_READER) private readonly dataSource: DataSource,
    private readonly settings: VectorIndexSettings,
    private readonly embeddingSettings: EmbeddingSettings,
    private readonly textIndex: TextIndexService,
    private readonly metrics: SearchMetrics,
    @Inject(HOLDS_TEXT_INDEX) private readonly holds: boolean,
  ) {}

  /** Whether this replica answers the semantic side from memory (SEARCH_VECTOR_INDEX=memory). */
  get enabled(): boolean {
    return this.holds && this.settings.SEARCH_VECTOR_INDEX === 'memory';
  }

  onApplicationBootstrap(): void {
    if (this.enabled) this.textIndex.onLoaded((text) => this.follow(text));
  }

  /** Stops following the text index, and waits for a load under way (it holds a connection). */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.loading;
  }

  /** The vectors of generation `generation`, when this replica holds them. */
  forGeneration(generation: string): VectorIndex | undefined {
    return this.enabled && this.index?.generation === generation ? this.index : undefined;
  }

  /**
   * Waits for the loads asked so far (those of the text index's generations swapped in until now):
   * after a reindex, for the commands and tests that rank at once (relevance-cli.ts).
   */
  async settled(): Promise<void> {
    while (this.loading) await this.loading;
  }

  /** Readiness: the first vectors are loaded (always, with SEARCH_VECTOR_INDEX=database). */
  isReady(): boolean {
    return !this.enabled || this.index !== undefined;
  }

  /** Loads the vectors of `text`'s generation after any load running (the newest asked wins). */
  private follow(text: TextIndex): void {
    this.wanted = text;
    this.loading ??= this.loadWanted().finally(() => {
      this.loading = undefined;
    });
  }

  private async loadWanted(): Promise<void> {
    for (let text = this.wanted; text !== undefined && !this.stopped; text = this.wanted) {
      this.wanted = undefined;
      if (this.index?.generation === text.generation) continue;
      try {
        const { index, ids, readMilliseconds, approximateMilliseconds, sparseMilliseconds } =
          await loadVectorIndex(
            this.dataSource,
            vectorIndexLoadOptions(this.embeddingSettings.EMBEDDING_PROVIDER),
          );
        if (this.stopped) return;
        // a reindex committed between the two loads: the text index loads that generation next
        // and asks again
        if (index.generation !== text.generation) continue;
        if (!sameOffers(ids, text.ids)) {
          throw new Error(`the vectors of generation ${index.generation} are not of the text index's offers`);
        }
        this.index = index;
        const seconds = (readMilliseconds + approximateMilliseconds + sparseMilliseconds) / 1000;
        this.metrics.vectorIndexBytes.set(index.bytes);
        this.metrics.vectorIndexLoadSeconds.set(seconds);
        this.metrics.vectorIndexLoads.inc({ result: 'succeeded' });
        this.logger.log(
          `Vector index generation ${index.generation} loaded: ${index.offers} vectors of ${index.dimension} ` +
            `dimensions, ${(index.bytes / 1048576).toFixed(1)} MiB in ${Math.round(readMilliseconds)} ms` +
            (index.approximate
              ? `, its approximate index built in ${Math.round(approximateMilliseconds)} ms`
              : '') +
            (index.sparse ? `, laid out for sparse queries in ${Math.round(sparseMilliseconds)} ms` : ''),
        );
      } catch (error) {
        if (this.stopped) return;
        this.metrics.vectorIndexLoads.inc({ result: 'failed' });
        this.logger.warn(
          { err: error },
          `Loading the vector index failed; the semantic side runs in the database until it is loaded (again in ${RETRY_AFTER_MS} ms)`,
        );
        const failed = text;
        this.retryTimer = setTimeout(() => {
          if (this.textIndex.current() === failed) this.follow(failed);
        }, RETRY_AFTER_MS);
        this.retryTimer.unref();
      }
    }
  }
}

/** Whether both sides hold the same offers by ordinal. */
function sameOffers(vectorIds: readonly string[], textIds: readonly string[]): boolean {
  if (vectorIds.length !== textIds.length) return false;
  for (let i = 0; i < vectorIds.length; i++) if (vectorIds[i] !== textIds[i]) return false;
  return true;
}
