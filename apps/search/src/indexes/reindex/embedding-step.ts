import { inSpan } from '@rt/telemetry';
import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { embeddingTextOf, toIndexedOffer } from '../../catalogue/catalogue-record';
import type { CatalogueRecord, IndexedOffer } from '../../catalogue/catalogue-record';
import type { EmbeddingIdentity } from '../../catalogue/content-hash';
import { EMBEDDING_PROVIDER, toVectorLiteral } from '../../embedding/embedding-provider';
import type { EmbeddingProvider } from '../../embedding/embedding-provider';
import { departureDaysMultirange } from '../../catalogue/date-ranges';
import type { RebuildRun } from './rebuild-run';
import type { RebuildSession, StagedOffer } from './reindex.repository';
import { ReindexSettings } from './reindex.settings';

/** Embedded in groups this small, yielding in between, so listings keep answering during a rebuild. */
const EMBED_CHUNK = 64;

/**
 * Step 3 of a rebuild, embedding: the new and changed records, embedded by the configured provider
 * (EMBED_CHUNK at a time, giving the event loop a turn in between) and staged in
 * `travel_offers_staging` REINDEX_BATCH_SIZE at a time, each batch its own short statement.
 */
@Injectable()
export class EmbeddingStep {
  constructor(
    @Inject(EMBEDDING_PROVIDER) private readonly embeddings: EmbeddingProvider,
    private readonly settings: ReindexSettings,
  ) {}

  /** What a content hash depends on besides the record: the embedding model and its dimension. */
  get identity(): EmbeddingIdentity {
    return { model: this.embeddings.model, dimension: this.embeddings.dimension };
  }

  /** The batches of one rebuild, staged through its session. */
  start(session: RebuildSession, run: RebuildRun): EmbeddingBatches {
    return new EmbeddingBatches(this.embeddings, this.settings, session, run);
  }
}

/** The new and changed records of one rebuild, embedded and staged a batch at a time. */
export class EmbeddingBatches {
  private batch: { offer: IndexedOffer; hash: string }[] = [];

  constructor(
    private readonly embeddings: EmbeddingProvider,
    private readonly settings: ReindexSettings,
    private readonly session: RebuildSession,
    private readonly run: RebuildRun,
  ) {}

  /** Queues a record to write (with its content hash); a full batch is embedded and staged first. */
  async add(record: CatalogueRecord, hash: string): Promise<void> {
    this.batch.push({ hash, offer: toIndexedOffer(record) });
    if (this.batch.length >= this.settings.REINDEX_BATCH_SIZE) await this.flush();
  }

  /** Embeds and stages the queued records (the last batch, once the source is read). */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    await inSpan('reindex.embed', { attributes: { 'reindex.batch_size': batch.length } }, async () => {
      await this.session.stage(await this.embed(batch));
    });
    this.batch = [];
    this.run.reportProgress();
  }

  private async embed(batch: { offer: IndexedOffer; hash: string }[]): Promise<StagedOffer[]> {
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
      this.run.progress.embedded += chunk.length;
      await yieldToEventLoop();
    }
    return staged;
  }
}
