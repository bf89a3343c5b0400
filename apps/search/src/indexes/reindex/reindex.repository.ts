import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, QueryRunner, Repository } from 'typeorm';
import { SEARCH_DATABASE } from '../../database/database-runtime';
import type { DatabaseRuntime } from '../../database/database-runtime';
import { POSTING_BLOCKS_SQL } from '../text-index/text-index.loader';
import { offerWordsSql, postingsSql } from '../../sql/postings';
import { writeOfferCompoundParts } from './offer-compounds';
import { OfferPlacing } from './offer-placer';
import type { OfferPlacer } from './offer-placer';
import type { PostingOffers } from '../../sql/postings';
import { ReindexRun } from './reindex-run.entity';
import { ReindexSettings } from './reindex.settings';

/** A new or changed record as a reindex stages it (unchanged records are not staged). */
export interface StagedOffer {
  id: string;
  content_hash: string;
  name: string;
  slug: string;
  description: string | null;
  destination_code: string | null;
  destination_name: string | null;
  categories: string[];
  rating: number | null;
  duration: number | null;
  next_departure: string | null;
  departure_dates: string[];
  /** `datemultirange` literal. */
  departure_days: string;
  discount_club: boolean;
  seaside: boolean;
  is_valid: boolean;
  record: unknown;
  /** pgvector literal. */
  embedding: string;
}

/** What a rebuild may do while it holds the rebuild lock. */
export interface RebuildSession {
  existingHashes(): Promise<Map<string, string>>;
  clearStaging(): Promise<void>;
  stage(offers: StagedOffer[]): Promise<void>;
  /**
   * In one transaction: removes the offers the source no longer has and upserts the staged ones.
   * Returns how many offers it removed and how many remain.
   */
  apply(removedIds: string[]): Promise<{ removed: number; total: number }>;
}

export type Locked<T> = { acquired: true; result: T } | { acquired: false };

/** Held while a rebuild runs (session lock, real server) and taken again in the apply transaction. */
const LOCK = `hashtext('search:reindex')`;

const OFFER_COLUMNS = [
  'name',
  'slug',
  'description',
  'destination_code',
  'destination_name',
  'categories',
  'rating',
  'duration',
  'next_departure',
  'departure_dates',
  'departure_days',
  'discount_club',
  'seaside',
  'is_valid',
  'record',
  'embedding',
  'content_hash',
];

/** Offers an empty index must receive at once to be bulk-loaded (indexes built after the insert). */
const BULK_LOAD_MIN = 1000;

type Query = (sql: string, values?: unknown[]) => Promise<unknown>;

/**
 * The write side of the index (`travel_offers`, `travel_offers_staging`) and the reindex runs.
 *
 * One rebuild at a time: on a real server a session advisory lock is held on a dedicated
 * connection for the whole rebuild (other replicas skip), and staging and applying run on that
 * connection; listings use the rest of the pool. The embedded database is one session, so there
 * nothing may hold the connection between statements: the service's in-process guard stands in
 * for the session lock, each staging batch is its own short statement, and only the apply holds
 * the connection, for one transaction (with `pg_try_advisory_xact_lock`).
 */
@Injectable()
export class ReindexRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(ReindexRun) private readonly runs: Repository<ReindexRun>,
    @Inject(SEARCH_DATABASE) private readonly database: DatabaseRuntime,
    private readonly settings: ReindexSettings,
    private readonly placing: OfferPlacing,
  ) {}

  async withRebuildLock<T>(work: (session: RebuildSession) => Promise<T>): Promise<Locked<T>> {
    if (this.database.singleSession) {
      return {
        acquired: true,
        result: await work(this.session((sql, values) => this.dataSource.query(sql, values))),
      };
    }
    const runner = this.dataSource.createQueryRunner('master');
    await runner.connect();
    try {
      const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_lock(${LOCK}) AS locked`)) as {
        locked: boolean;
      }[];
      if (!locked) return { acquired: false };
      try {
        return {
          acquired: true,
          result: await work(this.session((sql, values) => runner.query(sql, values), runner)),
        };
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(${LOCK})`);
      }
    } finally {
      await runner.release();
    }
  }

  private session(query: Query, lockedRunner?: QueryRunner): RebuildSession {
    return {
      existingHashes: async () => {
        const rows = (await query('SELECT id, content_hash FROM travel_offers')) as {
          id: string;
          content_hash: string;
        }[];
        return new Map(rows.map((row) => [row.id, row.content_hash]));
      },
      clearStaging: async () => {
        await query('TRUNCATE travel_offers_staging');
      },
      stage: async (offers) => {
        // One statement per batch: a short transaction of its own (the embedded session stays free between batches).
        await query(
          `INSERT INTO travel_offers_staging (id, ${OFFER_COLUMNS.join(', ')})
           SELECT id, ${OFFER_COLUMNS.join(', ')}
           FROM jsonb_to_recordset($1::jsonb) AS r(
             id text, name text, slug text, description text, destination_code text,
             destination_name text, categories text[], rating double precision, duration double precision,
             next_departure timestamp, departure_dates text[], departure_days datemultirange,
             discount_club boolean, seaside boolean, is_valid boolean, record jsonb, embedding vector, content_hash text)`,
          [JSON.stringify(offers)],
        );
      },
      apply: (removedIds) => this.apply(removedIds, lockedRunner),
    };
  }

  /** Deletions, inserts and updates in one transaction: readers see the old catalogue or the new one. */
  private async apply(
    removedIds: string[],
    lockedRunner?: QueryRunner,
  ): Promise<{ removed: number; total: number }> {
    // loaded (once: the gazetteer and 88,000 towns, a second or more) before the transaction
    const placer = this.placing.placer();
    const runner = lockedRunner ?? this.dataSource.createQueryRunner('master');
    if (!lockedRunner) await runner.connect();
    try {
      await runner.startTransaction();
      try {
        const [{ locked }] = (await runner.query(`SELECT pg_try_advisory_xact_lock(${LOCK}) AS locked`)) as {
          locked: boolean;
        }[];
        if (!locked) throw new Error('another reindex holds the rebuild lock');
        // An empty index receiving many offers (the first build) is bulk-loaded: its secondary indexes
        // are dropped and rebuilt after the insert (HNSW and GIN build far faster than they insert).
        const [{ empty, staged }] = (await runner.query(
          `SELECT NOT EXISTS (SELECT 1 FROM travel_offers) AS empty,
             (SELECT count(*)::int FROM travel_offers_staging) AS staged`,
        )) as { empty: boolean; staged: number }[];
        const bulk = empty && staged >= BULK_LOAD_MIN;
        const placesCurrent = await placesAreCurrent(runner, placer);
        const rebuiltIndexes = bulk
          ? [
              ...(await this.dropSecondaryIndexes(runner, 'travel_offers')),
              ...(await this.dropSecondaryIndexes(runner, 'search_postings')),
            ]
          : [];
        // travel_offers_pkey.
        const removed = (await runner.query(`DELETE FROM travel_offers WHERE id = ANY($1::text[])`, [
          removedIds,
        ])) as [unknown[], number];
        await runner.query(
          `INSERT INTO travel_offers (id, ${OFFER_COLUMNS.join(', ')}, indexed_at)
           SELECT id, ${OFFER_COLUMNS.join(', ')}, now() FROM travel_offers_staging
           ON CONFLICT (id) DO UPDATE SET ${[...OFFER_COLUMNS, 'indexed_at'].map((column) => `${column} = EXCLUDED.${column}`).join(', ')}`,
        );
        const outdated = await postingsOutdated(runner);
        if (removed[1] > 0 || staged > 0) await refreshPostings(runner, removedIds);
        if (rebuiltIndexes.length > 0) {
          await runner.query(
            `SET LOCAL maintenance_work_mem = '${this.settings.REINDEX_MAINTENANCE_WORK_MEM}'`,
          );
          for (const definition of rebuiltIndexes) await runner.query(definition);
        }
        const newGeneration = removed[1] > 0 || staged > 0 || outdated;
        if (newGeneration) await refreshSearchTerms(runner, outdated);
        if (staged > 0 || !placesCurrent) {
          await refreshOfferPlaces(runner, placer, placesCurrent ? 'staged' : 'all', !newGeneration);
        }
        const [{ total }] = (await runner.query('SELECT count(*)::int AS total FROM travel_offers')) as {
          total: number;
        }[];
        await runner.commitTransaction();
        return { removed: removed[1], total };
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        throw error;
      }
    } finally {
      if (!lockedRunner) await runner.release();
    }
  }

  /**
   * Drops the secondary indexes of `table` (`travel_offers`, `search_postings`) inside the apply
   * transaction and returns their definitions (`pg_get_indexdef`, so names and options stay those
   * of the migrations). Only for an empty index: the lock this takes makes listings wait until the
   * transaction commits.
   */
  private async dropSecondaryIndexes(
    runner: QueryRunner,
    table: 'travel_offers' | 'search_postings',
  ): Promise<string[]> {
    const indexes = (await runner.query(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i WHERE i.indrelid = $1::regclass AND NOT i.indisprimary`,
      [table],
    )) as { name: string; definition: string }[];
    for (const index of indexes) await runner.query(`DROP INDEX ${index.name}`);
    return indexes.map((index) => index.definition);
  }

  /**
   * After a change: fresh statistics, so the planner picks the right indexes for the new
   * catalogue, and a vacuum, so that the text side's index-only scans of the postings skip the
   * heap at once rather than after autovacuum's next visit (it only visits pages changed since).
   */
  async vacuumAnalyze(): Promise<void> {
    await this.dataSource.query(
      'VACUUM (ANALYZE) travel_offers, search_postings, search_lengths, search_terms, search_stats, search_posting_blocks',
    );
  }

  /** Throws when the primary cannot be reached (the reindex writes there). */
  async pingPrimary(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  countOffers(): Promise<number> {
    return this.dataSource
      .query('SELECT count(*)::int AS total FROM travel_offers')
      .then((rows: { total: number }[]) => rows[0].total);
  }

  /** The dimension of the `embedding` column, as the migrations made it. */
  async embeddingColumnDimension(): Promise<number | null> {
    const rows: { dimension: number | null }[] = await this.dataSource.query(
      `SELECT NULLIF(atttypmod, -1) AS dimension FROM pg_attribute
       WHERE attrelid = 'travel_offers'::regclass AND attname = 'embedding'`,
    );
    return rows[0]?.dimension ?? null;
  }

  async recordRun(run: Omit<ReindexRun, 'id'>): Promise<void> {
    await this.runs.insert(run);
  }

  /** When the last successful reindex finished (reindex_runs_status_finished_at_idx). */
  async lastSuccessAt(): Promise<Date | null> {
    const run = await this.runs.findOne({ where: { status: 'succeeded' }, order: { finishedAt: 'DESC' } });
    return run?.finishedAt ?? null;
  }
}

/**
 * The postings of the removed and the staged offers, in the apply transaction (sql/postings.ts:
 * the BM25 indexer). Uses search_postings_offer_idx to delete.
 */
async function refreshPostings(runner: QueryRunner, removedIds: string[]): Promise<void> {
  for (const table of ['search_postings', 'search_lengths']) {
    await runner.query(
      `DELETE FROM ${table} WHERE offer_id = ANY($1::text[]) OR offer_id IN (SELECT id FROM travel_offers_staging)`,
      [removedIds],
    );
  }
  await writePostings(runner, 'staged');
}

/**
 * What the postings hold (`search_stats.postings_version`, migration IndexCompoundParts): 2 since
 * the offers' compounds are split at index time (D-86); null, written before. A reindex finding
 * older postings rewrites every one, even when the catalogue did not change.
 */
export const POSTINGS_VERSION = 2;

/** Whether the postings were written by a release before POSTINGS_VERSION (an empty index is not). */
async function postingsOutdated(runner: QueryRunner): Promise<boolean> {
  const rows = (await runner.query('SELECT postings_version FROM search_stats WHERE offers > 0')) as {
    postings_version: number | null;
  }[];
  return rows.length > 0 && rows[0].postings_version !== POSTINGS_VERSION;
}

/** How far the average length may drift from the postings' reference length before every posting is rewritten. */
export const REFERENCE_LENGTH_DRIFT = 0.1;

async function writePostings(runner: QueryRunner, offers: PostingOffers): Promise<void> {
  for (const { text, values } of offerWordsSql(offers)) await runner.query(text, values);
  await writeOfferCompoundParts((text, values) => runner.query(text, values) as Promise<unknown[]>);
  for (const { text, values } of postingsSql(offers)) await runner.query(text, values);
}

/**
 * Rebuilds `search_terms` (the index's terms and how many offers hold each) and `search_stats`
 * (offers, average weighted length, and the reference length of the postings' impacts) in the
 * apply transaction: searches see the vocabulary of the catalogue they read. When the average
 * length has drifted more than REFERENCE_LENGTH_DRIFT from the reference, or the postings are
 * `outdated` (POSTINGS_VERSION), every posting is rewritten against the new average. DELETE rather than TRUNCATE, whose exclusive lock would stall
 * searches until the commit.
 */
async function refreshSearchTerms(runner: QueryRunner, outdated: boolean): Promise<void> {
  const [{ average, reference }] = (await runner.query(
    `SELECT (SELECT coalesce(avg(length), 1) FROM search_lengths)::float8 AS average,
       (SELECT reference_length FROM search_stats WHERE offers > 0)::float8 AS reference`,
  )) as { average: number; reference: number | null }[];
  const drifted = reference !== null && Math.abs(average / reference - 1) > REFERENCE_LENGTH_DRIFT;
  await runner.query('DELETE FROM search_stats');
  await runner.query(
    `INSERT INTO search_stats (offers, average_length, reference_length, postings_version)
     SELECT count(*), $1, $2, $3 FROM search_lengths`,
    [average, drifted || reference === null ? average : reference, POSTINGS_VERSION],
  );
  if (drifted || outdated) {
    await runner.query('DELETE FROM search_postings');
    await runner.query('DELETE FROM search_lengths');
    await writePostings(runner, 'all');
  }
  await runner.query('DELETE FROM search_terms');
  await runner.query(
    'INSERT INTO search_terms (term, documents) SELECT term, count(*) FROM search_postings GROUP BY term',
  );
  await rewritePostingBlocks(runner);
}

/**
 * Whether the offers' places (`search_offer_places`) were computed with `placer`'s data and rules
 * for the generation the database holds (`search_stats.places_version`, `places_generation`,
 * migration AddOfferPlaces): else every offer is placed again. An empty index's are (none).
 */
async function placesAreCurrent(runner: QueryRunner, placer: OfferPlacer): Promise<boolean> {
  const rows = (await runner.query(
    `SELECT places_version = $1 AND places_generation IS NOT DISTINCT FROM generation AS current
     FROM search_stats`,
    [placer.version],
  )) as { current: boolean | null }[];
  return rows.length === 0 || rows[0].current === true;
}

/** Offers placed per statement (read, placed in memory, written). */
const PLACING_BATCH = 5000;

/**
 * Places offers (docs/decisions.md D-88; OfferPlacer) in the apply transaction: the staged ones
 * (new or changed: an unchanged offer keeps its places), or `all` of them when the gazetteer, the
 * rules or the release that wrote the places differ (placesAreCurrent). An offer placed nowhere
 * has no row. Then marks the places as this generation's and version's; `newGeneration` gives the
 * database a new generation first (a places-only rebuild: the catalogue and its postings did not
 * change, but replicas must load the new places; the blocks stay valid for it). Exported for the
 * bench (offer-places-bench.ts).
 */
export async function refreshOfferPlaces(
  runner: QueryRunner,
  placer: OfferPlacer,
  offers: 'staged' | 'all',
  newGeneration: boolean,
): Promise<void> {
  await runner.query(
    offers === 'all'
      ? 'DELETE FROM search_offer_places'
      : 'DELETE FROM search_offer_places WHERE offer_id IN (SELECT id FROM travel_offers_staging)',
  );
  const scope = offers === 'all' ? '' : 'AND id IN (SELECT id FROM travel_offers_staging)';
  for (let after = ''; ;) {
    const rows = (await runner.query(
      `SELECT id, name, description, destination_code, destination_name, record ->> 'language' AS language
       FROM travel_offers WHERE id > $1 ${scope} ORDER BY id LIMIT ${PLACING_BATCH}`,
      [after],
    )) as {
      id: string;
      name: string;
      description: string | null;
      destination_code: string | null;
      destination_name: string | null;
      language: string | null;
    }[];
    if (rows.length === 0) break;
    after = rows[rows.length - 1].id;
    const placed: { id: string; places: string[]; points: string }[] = [];
    for (const row of rows) {
      const { places, points } = placer.place({
        name: row.name,
        description: row.description,
        destinationCode: row.destination_code,
        destinationName: row.destination_name,
        language: row.language,
      });
      if (places.length === 0 && points.length === 0) continue;
      const bytes = Buffer.alloc(points.length * 8);
      points.forEach((point, i) => {
        bytes.writeFloatBE(point.lat, i * 8);
        bytes.writeFloatBE(point.lon, i * 8 + 4);
      });
      placed.push({ id: row.id, places, points: bytes.toString('hex') });
    }
    if (placed.length > 0) {
      await runner.query(
        `INSERT INTO search_offer_places (offer_id, places, points)
         SELECT id, places, decode(points, 'hex')
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, places text[], points text)`,
        [JSON.stringify(placed)],
      );
    }
    if (rows.length < PLACING_BATCH) break;
  }
  if (newGeneration) {
    await runner.query(
      `WITH next AS (SELECT nextval('search_index_generation') AS generation)
       UPDATE search_stats SET generation = next.generation,
         blocks_generation = CASE WHEN blocks_generation = search_stats.generation THEN next.generation
           ELSE blocks_generation END
       FROM next`,
    );
  }
  await runner.query('UPDATE search_stats SET places_version = $1, places_generation = generation', [
    placer.version,
  ]);
}

/**
 * Rewrites `search_posting_blocks` (migration AddPostingBlocks: each term's postings as the byte
 * strings a replica loads, by offer ordinal) in the apply transaction whose `search_stats` row
 * takes the new generation (every ordinal past a removed or added offer moves), and marks them as
 * that generation's (`blocks_generation`, migration AddBlocksGeneration).
 */
async function rewritePostingBlocks(runner: QueryRunner): Promise<void> {
  await runner.query('DELETE FROM search_posting_blocks');
  await runner.query(
    `INSERT INTO search_posting_blocks (term, ordinals, impacts, fields) ${POSTING_BLOCKS_SQL}`,
  );
  await runner.query('UPDATE search_stats SET blocks_generation = generation');
}
