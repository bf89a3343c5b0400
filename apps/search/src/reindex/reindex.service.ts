import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CatalogueSourceReader, describeSource, SourceError } from '../catalogue/catalogue-source';
import { embeddingTextOf, IndexedOffer, toIndexedOffer } from '../catalogue/catalogue-record';
import { contentHash } from '../catalogue/content-hash';
import { RecordValidator } from '../catalogue/record-validator';
import { SEARCH_CONFIG } from '../config';
import type { SearchConfig } from '../config';
import { EMBEDDING_PROVIDER } from '../embedding/embedding-provider';
import type { EmbeddingProvider } from '../embedding/embedding-provider';
import { toVectorLiteral } from '../embedding/embedding-provider';
import { SearchMetrics } from '../metrics/search-metrics';
import { departureDaysMultirange } from '../travels/date-ranges';
import type { ReindexStatus, ReindexTrigger } from './reindex-run.entity';
import { RebuildSession, ReindexRepository, StagedOffer } from './reindex.repository';

export interface ReindexCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  removed: number;
  invalid: number;
}

export type ReindexOutcome =
  | ({ status: 'succeeded'; total: number; durationMs: number } & ReindexCounts)
  | ({ status: 'refused' | 'failed'; error: string; durationMs: number } & ReindexCounts)
  | { status: 'skipped'; reason: string };

export interface ReindexProgress {
  read: number;
  total?: number;
  invalid: number;
  embedded: number;
  phase: 'reading' | 'applying' | 'done';
}

export interface RebuildOptions {
  force?: boolean;
  onProgress?: (progress: ReindexProgress) => void;
}

export type TriggerAnswer = 'started' | 'already_running' | 'no_source';

/** Embedded in groups this small, yielding in between, so listings keep answering during a rebuild. */
const EMBED_CHUNK = 64;
/** Progress reported (and the event loop given a turn) every this many records read. */
const PROGRESS_EVERY = 500;
/** Invalid records logged one by one up to this many per run; a summary gives the rest. */
const INVALID_LOG_LIMIT = 50;

class MassRemovalRefused extends Error {}

/**
 * Rebuilds the index from the catalogue source (decisions.md, "Travel search service"): validates
 * each record (a bad one is skipped, counted and logged), embeds only records whose content hash
 * changed, stages those, then applies inserts, updates and deletions in one transaction. A
 * failing source, or one that would remove more than REINDEX_MAX_REMOVAL_SHARE of the catalogue
 * (unless forced), changes nothing. One rebuild at a time: an in-process guard here, an advisory
 * lock across replicas (ReindexRepository).
 */
@Injectable()
export class ReindexService
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('Reindex');
  private readonly validator = new RecordValidator();
  private running?: Promise<ReindexOutcome>;
  private ready = false;
  private retryTimer?: NodeJS.Timeout;
  private shuttingDown = false;

  constructor(
    private readonly repository: ReindexRepository,
    private readonly sources: CatalogueSourceReader,
    @Inject(EMBEDDING_PROVIDER) private readonly embeddings: EmbeddingProvider,
    private readonly metrics: SearchMetrics,
    @Inject(SEARCH_CONFIG) private readonly config: SearchConfig,
  ) {}

  /** Checks the embedding column, then builds an empty index in the background when a source is configured. */
  async onApplicationBootstrap(): Promise<void> {
    const columnDimension = await this.repository.embeddingColumnDimension();
    if (columnDimension !== this.embeddings.dimension) {
      throw new Error(
        `EMBEDDING_DIMENSION is ${this.embeddings.dimension} but travel_offers.embedding is vector(${columnDimension}); ` +
          'change the column with a migration first (see apps/search/README.md, "Embedding dimension")',
      );
    }
    const lastSuccess = await this.repository.lastSuccessAt();
    if (lastSuccess) this.metrics.reindexLastSuccess.set(lastSuccess.getTime() / 1000);
    const offers = await this.repository.countOffers();
    this.metrics.indexedOffers.set(offers);
    this.ready = offers > 0 || lastSuccess !== null || !this.config.catalogueSource;
    if (!this.ready && this.config.reindexOnStart) {
      this.logger.log(
        `The index is empty: building it from ${describeSource(this.config.catalogueSource ?? '')}`,
      );
      this.startInitialBuild();
    }
  }

  /** A rebuild in progress stops reading (nothing is applied) before the pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.idle();
  }

  onApplicationShutdown(): void {
    this.shuttingDown = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  /** Readiness: false until the first build is done (or while the index is empty with a source to build it from). */
  async isReady(): Promise<boolean> {
    if (this.ready) return true;
    // Another replica may have built it meanwhile.
    this.ready =
      (await this.repository.countOffers()) > 0 || (await this.repository.lastSuccessAt()) !== null;
    return this.ready;
  }

  /** GET /reindex: starts a background rebuild unless one is running here. */
  trigger(by: ReindexTrigger = 'http'): TriggerAnswer {
    if (!this.config.catalogueSource) return 'no_source';
    if (this.running) return 'already_running';
    this.start(by, {}).catch((error: unknown) => this.logger.error({ err: error }, 'Reindex crashed'));
    return 'started';
  }

  /** The same rebuild in the foreground (the CLI), or waits for the one running. */
  run(by: ReindexTrigger, options: RebuildOptions = {}): Promise<ReindexOutcome> {
    if (this.running) return this.running;
    return this.start(by, options);
  }

  /** Resolves when no rebuild is running here (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  private startInitialBuild(): void {
    void this.start('startup', {}).then((outcome) => {
      if (outcome.status === 'succeeded' || this.shuttingDown) return;
      this.logger.warn(
        `The first build did not succeed (${outcome.status}); retrying in ${this.config.REINDEX_RETRY_MS} ms`,
      );
      this.retryTimer = setTimeout(() => {
        void this.isReady().then((ready) => {
          if (!ready && !this.shuttingDown) this.startInitialBuild();
        });
      }, this.config.REINDEX_RETRY_MS);
      this.retryTimer.unref();
    });
  }

  private start(by: ReindexTrigger, options: RebuildOptions): Promise<ReindexOutcome> {
    const running = this.execute(by, options).finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private async execute(by: ReindexTrigger, options: RebuildOptions): Promise<ReindexOutcome> {
    const source = this.config.catalogueSource;
    if (!source) return { status: 'skipped', reason: 'no catalogue source is configured' };
    const startedAt = new Date();
    const counts: ReindexCounts = { inserted: 0, updated: 0, unchanged: 0, removed: 0, invalid: 0 };
    this.metrics.reindexRunning.set(1);
    const stopTimer = this.metrics.reindexDuration.startTimer();
    this.logger.log(`Reindex started (${by}) from ${describeSource(source)}`);
    let outcome: ReindexOutcome;
    try {
      const locked = await this.repository.withRebuildLock(async (session) => {
        try {
          return await this.rebuild(session, source, counts, options);
        } catch (error) {
          // Nothing staged survives a failed or refused rebuild (still under the lock).
          await session.clearStaging().catch(() => undefined);
          throw error;
        }
      });
      if (!locked.acquired) {
        outcome = { status: 'skipped', reason: 'another instance is rebuilding the index' };
      } else {
        outcome = {
          status: 'succeeded',
          total: locked.result,
          durationMs: Date.now() - startedAt.getTime(),
          ...counts,
        };
      }
    } catch (error) {
      const status: ReindexStatus = error instanceof MassRemovalRefused ? 'refused' : 'failed';
      if (status === 'failed' && !(error instanceof SourceError)) {
        this.logger.error({ err: error }, 'Reindex failed');
      }
      outcome = {
        status,
        error: (error as Error).message,
        durationMs: Date.now() - startedAt.getTime(),
        ...counts,
      };
    } finally {
      this.metrics.reindexRunning.set(0);
    }
    stopTimer({ result: outcome.status });
    this.metrics.reindexRuns.inc({ result: outcome.status });
    await this.finish(outcome, by, source, startedAt, options.force ?? false);
    return outcome;
  }

  private async finish(
    outcome: ReindexOutcome,
    by: ReindexTrigger,
    source: string,
    startedAt: Date,
    forced: boolean,
  ): Promise<void> {
    if (outcome.status === 'skipped') {
      this.logger.log(`Reindex skipped: ${outcome.reason}`);
      return;
    }
    const { inserted, updated, unchanged, removed, invalid } = outcome;
    const summary = { inserted, updated, unchanged, removed, invalid, durationMs: outcome.durationMs };
    if (outcome.status === 'succeeded') {
      for (const [key, value] of Object.entries({ inserted, updated, unchanged, removed, invalid })) {
        this.metrics.reindexRecords.inc({ outcome: key as keyof ReindexCounts }, value);
      }
      this.metrics.reindexLastSuccess.set(Date.now() / 1000);
      this.metrics.indexedOffers.set(outcome.total);
      this.ready = true;
      this.logger.log({ ...summary, total: outcome.total }, 'Reindex succeeded');
    } else {
      this.logger.warn({ ...summary, error: outcome.error }, `Reindex ${outcome.status}: ${outcome.error}`);
    }
    await this.repository
      .recordRun({
        startedAt,
        finishedAt: new Date(),
        status: outcome.status,
        triggeredBy: by,
        forced,
        source: describeSource(source),
        embeddingModel: this.embeddings.model,
        embeddingDimension: this.embeddings.dimension,
        inserted,
        updated,
        unchanged,
        removed,
        invalid,
        error: outcome.status === 'succeeded' ? null : outcome.error,
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'Could not record the reindex run'));
  }

  /** Reads, validates, embeds and stages the catalogue, then applies it. Returns the new catalogue size. */
  private async rebuild(
    session: RebuildSession,
    source: string,
    counts: ReindexCounts,
    options: RebuildOptions,
  ): Promise<number> {
    const existing = await session.existingHashes();
    await session.clearStaging();
    const opened = await this.sources.open(source, this.config.CATALOGUE_SOURCE_TIMEOUT_MS);
    const identity = { model: this.embeddings.model, dimension: this.embeddings.dimension };
    const progress: ReindexProgress = {
      read: 0,
      total: opened.total,
      invalid: 0,
      embedded: 0,
      phase: 'reading',
    };
    const seen = new Set<string>();
    let batch: { offer: IndexedOffer; hash: string }[] = [];

    const invalid = (position: number, id: unknown, problems: string[]) => {
      counts.invalid++;
      progress.invalid++;
      if (counts.invalid <= INVALID_LOG_LIMIT) {
        this.logger.warn(
          { position, id: typeof id === 'string' ? id : undefined, problems },
          'Invalid catalogue record skipped',
        );
      }
    };
    const flush = async () => {
      if (batch.length === 0) return;
      await session.stage(await this.toStaged(batch, progress));
      batch = [];
      options.onProgress?.(progress);
    };

    for await (const item of opened.items) {
      if (this.shuttingDown) throw new Error('the service is shutting down');
      progress.read++;
      if (progress.read % PROGRESS_EVERY === 0) {
        options.onProgress?.(progress);
        await yieldToEventLoop();
      }
      if (item.kind === 'unparsable') {
        invalid(item.position, undefined, [`not JSON: ${item.error}`]);
        continue;
      }
      const check = this.validator.check(item.value);
      const givenId = (item.value as { id?: unknown } | null)?.id;
      if (!check.ok) {
        invalid(item.position, givenId, check.problems);
        continue;
      }
      const { record } = check;
      if (seen.has(record.id)) {
        invalid(item.position, record.id, ['/id is a duplicate of an earlier record']);
        continue;
      }
      seen.add(record.id);
      const hash = contentHash(record, identity);
      const previous = existing.get(record.id);
      if (previous === hash) {
        counts.unchanged++;
        continue;
      }
      if (previous === undefined) counts.inserted++;
      else counts.updated++;
      batch.push({ hash, offer: toIndexedOffer(record) });
      if (batch.length >= this.config.REINDEX_BATCH_SIZE) await flush();
    }
    await flush();
    if (counts.invalid > INVALID_LOG_LIMIT) {
      this.logger.warn(
        `${counts.invalid} invalid catalogue records skipped (the first ${INVALID_LOG_LIMIT} are logged)`,
      );
    }

    const removedIds = [...existing.keys()].filter((id) => !seen.has(id));
    counts.removed = removedIds.length;
    const share = existing.size === 0 ? 0 : counts.removed / existing.size;
    if (share > this.config.REINDEX_MAX_REMOVAL_SHARE && !options.force) {
      throw new MassRemovalRefused(
        `the source would remove ${counts.removed} of ${existing.size} offers (${(share * 100).toFixed(1)}%, ` +
          `more than REINDEX_MAX_REMOVAL_SHARE=${this.config.REINDEX_MAX_REMOVAL_SHARE}); nothing was changed (force it with the reindex command's --force)`,
      );
    }
    progress.phase = 'applying';
    options.onProgress?.(progress);
    const changed = counts.inserted + counts.updated + counts.removed > 0;
    const applied = await session.apply(removedIds);
    counts.removed = applied.removed;
    await session.clearStaging();
    if (changed) await this.repository.analyze();
    progress.phase = 'done';
    options.onProgress?.(progress);
    return applied.total;
  }

  private async toStaged(
    batch: { offer: IndexedOffer; hash: string }[],
    progress: ReindexProgress,
  ): Promise<StagedOffer[]> {
    const staged: StagedOffer[] = [];
    for (let start = 0; start < batch.length; start += EMBED_CHUNK) {
      const chunk = batch.slice(start, start + EMBED_CHUNK);
      const vectors = await this.embeddings.embedDocuments(chunk.map(({ offer }) => embeddingTextOf(offer)));
      chunk.forEach(({ offer, hash }, i) =>
        staged.push({
          id: offer.id,
          content_hash: hash,
          name: offer.name,
          slug: offer.slug,
          description: offer.description,
          destination_code: offer.destinationCode,
          destination_name: offer.destinationName,
          categories: offer.categories,
          rating: offer.rating,
          duration: offer.duration,
          next_departure: offer.nextDeparture,
          departure_dates: offer.departureDates,
          departure_days: departureDaysMultirange(offer.departureDates),
          discount_club: offer.discountClub,
          seaside: offer.seaside,
          is_valid: offer.isValid,
          record: offer.record,
          embedding: toVectorLiteral(vectors[i]),
        }),
      );
      progress.embedded += chunk.length;
      await yieldToEventLoop();
    }
    return staged;
  }
}
