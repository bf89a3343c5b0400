import { Injectable, Logger } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { CatalogueRecord } from '../../catalogue/catalogue-record';
import { CatalogueSourceReader } from '../../catalogue/catalogue-source';
import type { SourceItem } from '../../catalogue/catalogue-source';
import { RecordValidator } from '../../catalogue/record-validator';
import type { RebuildRun } from './rebuild-run';
import { ReindexSettings } from './reindex.settings';

/** Progress reported (and the event loop given a turn) every this many records read. */
const PROGRESS_EVERY = 500;
/** Invalid records logged one by one up to this many per run; a summary gives the rest. */
const INVALID_LOG_LIMIT = 50;

/**
 * Step 1 of a rebuild, reading: the catalogue source's valid records, each id once. A line that is
 * not JSON, a record that fails travel-offer.schema.json and a repeated id are skipped, counted
 * (`invalid`) and logged (the first INVALID_LOG_LIMIT one by one, then a summary). Every
 * PROGRESS_EVERY records read, the progress is reported and the event loop gets a turn.
 */
@Injectable()
export class CatalogueReader {
  private readonly logger = new Logger('Reindex');
  private readonly validator = new RecordValidator();

  constructor(
    private readonly sources: CatalogueSourceReader,
    private readonly settings: ReindexSettings,
  ) {}

  /**
   * Opens the source (a SourceError when it cannot be read, then or while its records are read)
   * and returns its records, read as they are iterated; reading stops when the service stops.
   */
  async open(source: string, run: RebuildRun): Promise<AsyncIterable<CatalogueRecord>> {
    const opened = await this.sources.open(source, this.settings.CATALOGUE_SOURCE_TIMEOUT_MS);
    run.progress.total = opened.total;
    return this.validRecords(opened.items, run);
  }

  private async *validRecords(
    items: AsyncIterable<SourceItem>,
    run: RebuildRun,
  ): AsyncGenerator<CatalogueRecord> {
    const seen = new Set<string>();
    for await (const item of items) {
      if (run.stopping()) throw new Error('the service is shutting down');
      run.progress.read++;
      if (run.progress.read % PROGRESS_EVERY === 0) {
        run.reportProgress();
        await yieldToEventLoop();
      }
      if (item.kind === 'unparsable') {
        this.invalid(run, item.position, undefined, [`not JSON: ${item.error}`]);
        continue;
      }
      const check = this.validator.check(item.value);
      if (!check.ok) {
        this.invalid(run, item.position, (item.value as { id?: unknown } | null)?.id, check.problems);
        continue;
      }
      const { record } = check;
      if (seen.has(record.id)) {
        this.invalid(run, item.position, record.id, ['/id is a duplicate of an earlier record']);
        continue;
      }
      seen.add(record.id);
      yield record;
    }
    if (run.counts.invalid > INVALID_LOG_LIMIT) {
      this.logger.warn(
        `${run.counts.invalid} invalid catalogue records skipped (the first ${INVALID_LOG_LIMIT} are logged)`,
      );
    }
  }

  private invalid(run: RebuildRun, position: number, id: unknown, problems: string[]): void {
    run.counts.invalid++;
    run.progress.invalid++;
    if (run.counts.invalid <= INVALID_LOG_LIMIT) {
      this.logger.warn(
        { position, id: typeof id === 'string' ? id : undefined, problems },
        'Invalid catalogue record skipped',
      );
    }
  }
}
