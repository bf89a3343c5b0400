import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { describeSource, SourceError } from '../../catalogue/catalogue-source';
import { QueryExpansionService } from '../../query/glossary/query-expansion.service';
import { SearchMetrics } from '../../metrics/search-metrics';
import { TextIndexService } from '../text-index/text-index.service';
import { ApplyStep } from './apply-step';
import { CatalogueDiff, MassRemovalRefused } from './catalogue-diff';
import { CatalogueReader } from './catalogue-reader';
import { EmbeddingStep } from './embedding-step';
import { RebuildRun } from './rebuild-run';
import type { ReindexCounts, ReindexProgress } from './rebuild-run';
import type { ReindexStatus, ReindexTrigger } from './reindex-run.entity';
import { RebuildSession, ReindexRepository } from './reindex.repository';
import { ReindexSettings } from './reindex.settings';
import { activeTraceContext, Attributes, inSpan, linksTo, SpanStatusCode } from '@rt/telemetry';

export type ReindexOutcome =
  | ({ status: 'succeeded'; total: number; durationMs: number } & ReindexCounts)
  | ({ status: 'refused' | 'failed'; error: string; durationMs: number } & ReindexCounts)
  | { status: 'skipped'; reason: string };

export interface RebuildOptions {
  force?: boolean;
  onProgress?: (progress: ReindexProgress) => void;
}

export type TriggerAnswer = 'started' | 'already_running' | 'no_source';

/**
 * Rebuilds the index from the catalogue source (docs/decisions.md D-61, D-62): validates
 * each record (a bad one is skipped, counted and logged), embeds only records whose content hash
 * changed, stages those, then applies inserts, updates and deletions in one transaction. A
 * failing source, or one that would remove more than REINDEX_MAX_REMOVAL_SHARE of the catalogue
 * (unless forced), changes nothing. One rebuild at a time: an in-process guard here, an advisory
 * lock across replicas (ReindexRepository).
 *
 * This class orchestrates (start-up build and retry, guard, lock, outcome, logs, metrics, the
 * runs table); each step of a run is its own class, sharing the run's counts and progress
 * (RebuildRun): 1. CatalogueReader reads and validates the source, 2. CatalogueDiff (pure) sorts
 * its records against the index's content hashes, 3. EmbeddingStep embeds and stages the new and
 * changed ones, 4. ApplyStep applies them and the removals in one transaction.
 */
@Injectable()
export class ReindexService
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('Reindex');
  private running?: Promise<ReindexOutcome>;
  private ready = false;
  private retryTimer?: NodeJS.Timeout;
  private shuttingDown = false;

  constructor(
    private readonly repository: ReindexRepository,
    private readonly reading: CatalogueReader,
    private readonly embedding: EmbeddingStep,
    private readonly applying: ApplyStep,
    private readonly metrics: SearchMetrics,
    private readonly expansions: QueryExpansionService,
    private readonly textIndex: TextIndexService,
    private readonly settings: ReindexSettings,
  ) {}

  /** Checks the embedding column, then builds an empty index in the background when a source is configured. */
  async onApplicationBootstrap(): Promise<void> {
    const columnDimension = await this.repository.embeddingColumnDimension();
    const { dimension } = this.embedding.identity;
    if (columnDimension !== dimension) {
      throw new Error(
        `EMBEDDING_DIMENSION is ${dimension} but travel_offers.embedding is vector(${columnDimension}); ` +
          'change the column with a migration first (see apps/search/README.md, "Embedding dimension")',
      );
    }
    const lastSuccess = await this.repository.lastSuccessAt();
    if (lastSuccess) this.metrics.reindexLastSuccess.set(lastSuccess.getTime() / 1000);
    const offers = await this.repository.countOffers();
    this.metrics.indexedOffers.set(offers);
    this.ready = offers > 0 || lastSuccess !== null || !this.settings.catalogueSource;
    if (!this.ready && this.settings.reindexOnStart) {
      this.logger.log(
        `The index is empty: building it from ${describeSource(this.settings.catalogueSource ?? '')}`,
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

  /**
   * GET /reindex: starts a background rebuild unless one is running here. The rebuild writes to
   * the primary: when it cannot be reached (the service may still serve listings from a replica)
   * this throws its connection error, which the edge answers 503 `service_unavailable`, rather than
   * start a run bound to fail.
   */
  async trigger(by: ReindexTrigger = 'http'): Promise<TriggerAnswer> {
    if (!this.settings.catalogueSource) return 'no_source';
    if (this.running) return 'already_running';
    await this.repository.pingPrimary();
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
        `The first build did not succeed (${outcome.status}); retrying in ${this.settings.REINDEX_RETRY_MS} ms`,
      );
      this.retryTimer = setTimeout(() => {
        void this.isReady().then((ready) => {
          if (!ready && !this.shuttingDown) this.startInitialBuild();
        });
      }, this.settings.REINDEX_RETRY_MS);
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

  /**
   * One run, traced as a trace of its own (it outlives the request that may have started it, which
   * it links to): its steps read (with each embedded batch), diff and apply are its children.
   */
  private async execute(by: ReindexTrigger, options: RebuildOptions): Promise<ReindexOutcome> {
    // the operator synonyms are read again with each reindex (a start-up build read them at start)
    if (by !== 'startup') await this.reloadSynonyms();
    const source = this.settings.catalogueSource;
    if (!source) return { status: 'skipped', reason: 'no catalogue source is configured' };
    const attributes = { 'reindex.trigger': by, 'reindex.forced': options.force ?? false };
    return inSpan(
      'reindex',
      { root: true, links: linksTo(activeTraceContext()), attributes },
      async (span) => {
        const outcome = await this.executeAndRecord(by, options, source);
        // this replica serves the new generation as soon as it is loaded (the others poll for it)
        if (outcome.status === 'succeeded') await this.textIndex.refresh();
        span.setAttribute('reindex.status', outcome.status);
        if (outcome.status !== 'skipped') span.setAttributes(countAttributes(outcome));
        if (outcome.status === 'failed')
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'reindex failed' });
        return outcome;
      },
    );
  }

  private async executeAndRecord(
    by: ReindexTrigger,
    options: RebuildOptions,
    source: string,
  ): Promise<ReindexOutcome> {
    const startedAt = new Date();
    const run = new RebuildRun(() => this.shuttingDown, options.onProgress);
    const { counts } = run;
    this.metrics.reindexRunning.set(1);
    const stopTimer = this.metrics.reindexDuration.startTimer();
    this.logger.log(`Reindex started (${by}) from ${describeSource(source)}`);
    let outcome: ReindexOutcome;
    try {
      const locked = await this.repository.withRebuildLock(async (session) => {
        try {
          return await this.rebuild(session, source, run, options.force ?? false);
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
        // TypeORM's refusal of a query runner whose connection died names the symptom: the
        // recorded reason names the cause an operator can act on.
        error:
          (error as Error).name === 'QueryRunnerAlreadyReleasedError'
            ? `The database connection was lost: ${(error as Error).message}`
            : (error as Error).message,
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

  /** A synonyms file that cannot be read or parsed is refused, the previous synonyms kept, the reindex goes on. */
  private async reloadSynonyms(): Promise<void> {
    try {
      await this.expansions.reloadSynonyms();
    } catch (error) {
      this.logger.error(`Synonyms refused, the previous ones are kept: ${(error as Error).message}`);
    }
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
    const { model, dimension } = this.embedding.identity;
    await this.repository
      .recordRun({
        startedAt,
        finishedAt: new Date(),
        status: outcome.status,
        triggeredBy: by,
        forced,
        source: describeSource(source),
        embeddingModel: model,
        embeddingDimension: dimension,
        inserted,
        updated,
        unchanged,
        removed,
        invalid,
        error: outcome.status === 'succeeded' ? null : outcome.error,
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'Could not record the reindex run'));
  }

  /** The steps of one run, under the rebuild lock. Returns the new catalogue size. */
  private async rebuild(
    session: RebuildSession,
    source: string,
    run: RebuildRun,
    force: boolean,
  ): Promise<number> {
    // Reading compares each record with the index as it comes; the changed ones are embedded a
    // batch at a time meanwhile (each batch a span of its own).
    const diff = await inSpan('reindex.read', {}, async (span) => {
      const compared = new CatalogueDiff(await session.existingHashes(), this.embedding.identity, run.counts);
      await session.clearStaging();
      const records = await this.reading.open(source, run);
      const batches = this.embedding.start(session, run);
      for await (const record of records) {
        const hash = compared.changedHash(record);
        if (hash !== undefined) await batches.add(record, hash);
      }
      await batches.flush();
      span.setAttribute('reindex.records_read', run.progress.read);
      return compared;
    });
    const removedIds = await inSpan('reindex.diff', {}, async (span) => {
      const removed = diff.removedIds(this.settings.REINDEX_MAX_REMOVAL_SHARE, force);
      span.setAttributes({ ...countAttributes(run.counts), 'reindex.removed': removed.length });
      return removed;
    });
    run.enterPhase('applying');
    const total = await inSpan('reindex.apply', {}, async (span) => {
      const size = await this.applying.apply(session, removedIds, run.counts);
      span.setAttribute('reindex.catalogue_size', size);
      return size;
    });
    run.enterPhase('done');
    return total;
  }
}

function countAttributes(counts: ReindexCounts): Attributes {
  return {
    'reindex.inserted': counts.inserted,
    'reindex.updated': counts.updated,
    'reindex.unchanged': counts.unchanged,
    'reindex.removed': counts.removed,
    'reindex.invalid': counts.invalid,
  };
}
