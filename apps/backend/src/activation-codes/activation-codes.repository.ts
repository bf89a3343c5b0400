import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import Cursor from 'pg-cursor';
import { DataSource, QueryFailedError, Repository } from 'typeorm';
import { transactional } from '../database/transactions';
import { ActivationCodeBatch } from './activation-code-batch.entity';
import type { CodeAction } from './activation-code-event.entity';
import { ActivationCode } from './activation-code.entity';
import { CODE_COLUMNS, CodeFilter, exportSql, ExportKey, listingSql } from './activation-code-listing.sql';
import { CODE_STATUSES, type BulkAction, type CodeFlags, type CodeStatus } from './activation-code-status';
import { statusCountsSql, statusSql, transitionSourceSql } from './activation-code-status.sql';

/** A code as its resource shows it. */
export interface CodeView extends CodeFlags {
  id: string;
  fullCode: string;
  organizationId: string;
  batchId: string;
  batchNumber: number;
  claimedByUserId: string | null;
  createdAt: Date;
}

export interface CodeEventView {
  action: CodeAction;
  fromStatus: CodeStatus | null;
  toStatus: CodeStatus;
  actorUserId: string | null;
  at: Date;
  details: Record<string, unknown> | null;
}

export type StatusCounts = Record<CodeStatus, number> & { total: number };

export interface BatchView {
  id: string;
  organizationId: string;
  batchNumber: number;
  internalNote: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** A trip starting on a code: its id and tour (for the history) and its window (`YYYY-MM-DD`). */
export interface TripStart {
  tripId: string;
  tourId: string;
  startsOn: string;
  endsOn: string;
}

export interface NewBatch {
  organizationId: string;
  batchNumber: number;
  internalNote: string | null;
  expiresAt: Date | null;
  createdByUserId: string;
}

export interface BatchFilter {
  organizationId?: string;
  batchNumber?: number;
}

/** Thrown when a generation names an organization that does not exist (a foreign key). */
export class UnknownOrganizationError extends Error {
  constructor() {
    super('unknown organization');
    this.name = 'UnknownOrganizationError';
  }
}

interface CodeRow {
  id: string;
  full_code: string;
  organization_id: string;
  batch_id: string;
  batch_number: number;
  expires_at: Date | null;
  purchased_at: Date | null;
  used_at: Date | null;
  cancelled_at: Date | null;
  reimbursed_at: Date | null;
  claimed_by_user_id: string | null;
  created_at: Date;
  trip_starts_on: string | null;
  trip_ends_on: string | null;
}

const toCodeView = (row: CodeRow): CodeView => ({
  id: row.id,
  fullCode: row.full_code,
  organizationId: row.organization_id,
  batchId: row.batch_id,
  batchNumber: Number(row.batch_number),
  expiresAt: row.expires_at,
  purchasedAt: row.purchased_at,
  usedAt: row.used_at,
  cancelledAt: row.cancelled_at,
  reimbursedAt: row.reimbursed_at,
  claimedByUserId: row.claimed_by_user_id,
  createdAt: row.created_at,
  tripStartsOn: row.trip_starts_on,
  tripEndsOn: row.trip_ends_on,
});

type CountsRow = Record<string, string | number>;

const toCounts = (row: CountsRow | undefined): StatusCounts => {
  const counts = { total: Number(row?.total ?? 0) } as StatusCounts;
  for (const status of CODE_STATUSES) counts[status] = Number(row?.[status] ?? 0);
  return counts;
};

const BATCH_COLUMNS = `b.id, b.organization_id, b.batch_number, b.internal_note, b.expires_at, b.created_at`;

interface BatchRow {
  id: string;
  organization_id: string;
  batch_number: number;
  internal_note: string | null;
  expires_at: Date | null;
  created_at: Date;
}

const toBatchView = (row: BatchRow): BatchView => ({
  id: row.id,
  organizationId: row.organization_id,
  batchNumber: Number(row.batch_number),
  internalNote: row.internal_note,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

const isForeignKeyViolation = (error: unknown): boolean =>
  error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23503';

/** Rows per chunk of the export on the embedded database (keyset pagination). */
const EXPORT_CHUNK_ROWS = 5_000;
/**
 * Lines the server cursor hands over per round trip. Each row is one string (PostgreSQL writes the
 * line), so 5,000 keep the app's RSS growth near 25 MB during a million-row export and move 23%
 * more rows a second than 1,000. (When the app formatted the CSV itself, 5,000 rows of arrays grew
 * the RSS by 110 MB and 1,000 was the better choice.)
 */
const EXPORT_CURSOR_ROWS = 5_000;

/**
 * The one writer of `activation_codes`, `activation_code_batches`, `activation_code_batch_counters`
 * and `activation_code_events`. Every lifecycle move is one statement that moves the codes whose
 * state allows it (`transitionSourceSql`, re-checked on the latest row version under the row
 * lock: a concurrent identical call finds them moved) and appends their history rows.
 */
@Injectable()
export class ActivationCodesRepository {
  constructor(
    @InjectRepository(ActivationCode) private readonly plainCodes: Repository<ActivationCode>,
    @InjectRepository(ActivationCodeBatch) private readonly plainBatches: Repository<ActivationCodeBatch>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The current transaction's repositories inside `Transactions.run`, else the plain ones. */
  private get codes(): Repository<ActivationCode> {
    return transactional(this.plainCodes);
  }

  private get batches(): Repository<ActivationCodeBatch> {
    return transactional(this.plainBatches);
  }

  // --- generation -------------------------------------------------------------------------------

  /**
   * The organization's next batch number. Its counter row stays locked until the transaction
   * ends, so concurrent generations for one organization number one after the other; a rollback
   * gives the number back. Call inside `Transactions.run`.
   */
  async nextBatchNumber(organizationId: string): Promise<number> {
    try {
      const rows: { last_batch_number: number }[] = await this.batches.query(
        `INSERT INTO activation_code_batch_counters (organization_id, last_batch_number)
         VALUES ($1, 1)
         ON CONFLICT (organization_id)
         DO UPDATE SET last_batch_number = activation_code_batch_counters.last_batch_number + 1
         RETURNING last_batch_number`,
        [organizationId],
      );
      return Number(rows[0].last_batch_number);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new UnknownOrganizationError();
      throw error;
    }
  }

  async insertBatch(batch: NewBatch): Promise<BatchView> {
    const saved = await this.batches.save(this.batches.create(batch));
    return toBatchView({
      id: saved.id,
      organization_id: saved.organizationId,
      batch_number: saved.batchNumber,
      internal_note: saved.internalNote,
      expires_at: saved.expiresAt,
      created_at: saved.createdAt,
    });
  }

  /**
   * Inserts the codes of a batch in one statement (an unnest of the array), with one `generate`
   * history row per code, and answers how many were inserted: a code that already exists
   * (activation_codes_full_code_unique) is left out, and the caller generates that many again.
   */
  async insertCodes(batch: BatchView, fullCodes: string[], actorUserId: string): Promise<number> {
    const rows: { inserted: number }[] = await this.codes.query(
      `WITH inserted AS (
         INSERT INTO activation_codes (full_code, organization_id, batch_id, expires_at, created_at)
         SELECT code, $2, $3, $4, $5 FROM unnest($1::text[]) AS code
         ON CONFLICT (full_code) DO NOTHING
         RETURNING *
       ), logged AS (
         INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at)
         SELECT c.id, 'generate', NULL, ${statusSql('c')}, $6, now() FROM inserted c
       )
       SELECT count(*)::integer AS inserted FROM inserted`,
      [fullCodes, batch.organizationId, batch.id, batch.expiresAt, batch.createdAt, actorUserId],
    );
    return Number(rows[0].inserted);
  }

  // --- reads --------------------------------------------------------------------------------------

  /** One page of the filtered codes and the size of the filtered set (one statement). */
  async findPage(filter: CodeFilter, page: { limit: number; offset: number }): Promise<[CodeView[], number]> {
    const sql = listingSql(filter, page);
    const rows: (CodeRow & { total: number })[] = await this.codes.query(sql.text, sql.values);
    const total = Number(rows[0]?.total ?? 0);
    return [rows.filter((row) => row.id !== null).map(toCodeView), total];
  }

  async findById(id: string): Promise<CodeView | null> {
    const rows: CodeRow[] = await this.codes.query(
      `SELECT ${CODE_COLUMNS} FROM activation_codes c JOIN activation_code_batches b ON b.id = c.batch_id
        WHERE c.id = $1`,
      [id],
    );
    return rows[0] ? toCodeView(rows[0]) : null;
  }

  /** On activation_codes_full_code_unique. */
  async findByFullCode(fullCode: string): Promise<CodeView | null> {
    const rows: CodeRow[] = await this.codes.query(
      `SELECT ${CODE_COLUMNS} FROM activation_codes c JOIN activation_code_batches b ON b.id = c.batch_id
        WHERE c.full_code = $1`,
      [fullCode],
    );
    return rows[0] ? toCodeView(rows[0]) : null;
  }

  async findByIds(ids: string[]): Promise<CodeView[]> {
    if (ids.length === 0) return [];
    const rows: CodeRow[] = await this.codes.query(
      `SELECT ${CODE_COLUMNS} FROM activation_codes c JOIN activation_code_batches b ON b.id = c.batch_id
        WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map(toCodeView);
  }

  /** The code's history, oldest first (activation_code_events_code_idx). */
  async findHistory(codeId: string): Promise<CodeEventView[]> {
    const rows: {
      action: CodeAction;
      from_status: CodeStatus | null;
      to_status: CodeStatus;
      actor_user_id: string | null;
      at: Date;
      details: Record<string, unknown> | null;
    }[] = await this.codes.query(
      `SELECT action, from_status, to_status, actor_user_id, at, details
         FROM activation_code_events WHERE code_id = $1 ORDER BY at, id`,
      [codeId],
    );
    return rows.map((row) => ({
      action: row.action,
      fromStatus: row.from_status,
      toStatus: row.to_status,
      actorUserId: row.actor_user_id,
      at: row.at,
      details: row.details,
    }));
  }

  /** The total and the count of each status, over all codes or an organization's. */
  async countByStatus(organizationId?: string): Promise<StatusCounts> {
    const rows: CountsRow[] = await this.codes.query(
      `SELECT ${statusCountsSql(CODE_STATUSES, 'c')}
         FROM activation_codes c
        WHERE ${organizationId ? 'c.organization_id = $1' : 'true'}`,
      organizationId ? [organizationId] : [],
    );
    return toCounts(rows[0]);
  }

  // --- moves --------------------------------------------------------------------------------------

  /**
   * Makes `action` on those of `ids` whose state allows it, in one statement: lock them (in id
   * order, so concurrent calls never deadlock) where the allowed-source condition holds on their
   * latest version, update them, append one history row each. Answers the moved codes; the others
   * did not change. A renewal leaves out codes whose expiration is already the new one.
   */
  async move(
    action: BulkAction,
    ids: string[],
    actorUserId: string,
    newExpiration?: Date,
  ): Promise<CodeView[]> {
    const values: unknown[] = [ids, actorUserId, action];
    let set: string;
    let condition = transitionSourceSql(action, 'c');
    let details = 'NULL::jsonb';
    switch (action) {
      case 'cancel':
        set = 'cancelled_at = now()';
        break;
      case 'reimburse':
        set = 'reimbursed_at = now(), cancelled_at = coalesce(c.cancelled_at, now())';
        break;
      case 'renew':
        values.push(newExpiration);
        set = 'expires_at = $4';
        condition += ' AND c.expires_at IS DISTINCT FROM $4';
        details = `jsonb_build_object('from', t.old_expires_at, 'to', c.expires_at)`;
        break;
    }
    const rows: CodeRow[] = await this.codes.query(
      `WITH target AS (
         SELECT c.id, ${statusSql('c')} AS from_status, c.expires_at AS old_expires_at
           FROM activation_codes c
          WHERE c.id = ANY($1::uuid[]) AND ${condition}
          ORDER BY c.id
            FOR UPDATE
       ), moved AS (
         UPDATE activation_codes c SET ${set}
           FROM target t
          WHERE c.id = t.id
         RETURNING c.*, t.from_status, ${details} AS details
       ), logged AS (
         INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at, details)
         SELECT c.id, $3, c.from_status, ${statusSql('c')}, $2, now(), c.details FROM moved c
       )
       SELECT ${CODE_COLUMNS} FROM moved c JOIN activation_code_batches b ON b.id = c.batch_id`,
      values,
    );
    return rows.map(toCodeView);
  }

  /**
   * The claim, in one statement: the code (by its stored form) is claimed by the user and marked
   * purchased (when not yet) if nobody holds it and it is not reimbursed, cancelled or expired —
   * conditions re-checked under the row lock, so of two users claiming at once one wins. Null
   * when nothing moved (the caller reads the code to tell why).
   */
  async claim(fullCode: string, userId: string): Promise<CodeView | null> {
    const rows: CodeRow[] = await this.codes.query(
      `WITH target AS (
         SELECT c.id, ${statusSql('c')} AS from_status
           FROM activation_codes c
          WHERE c.full_code = $1
            AND c.claimed_by_user_id IS NULL
            AND c.reimbursed_at IS NULL AND c.cancelled_at IS NULL
            AND (c.expires_at IS NULL OR c.expires_at >= now())
            FOR UPDATE
       ), moved AS (
         UPDATE activation_codes c
            SET claimed_by_user_id = $2, purchased_at = coalesce(c.purchased_at, now())
           FROM target t
          WHERE c.id = t.id
         RETURNING c.*, t.from_status
       ), logged AS (
         INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at)
         SELECT c.id, 'claim', c.from_status, ${statusSql('c')}, $2, now() FROM moved c
       )
       SELECT ${CODE_COLUMNS} FROM moved c JOIN activation_code_batches b ON b.id = c.batch_id`,
      [fullCode, userId],
    );
    return rows[0] ? toCodeView(rows[0]) : null;
  }

  /**
   * A trip's start, in one statement: the code is marked used and given the trip window if it is
   * claimed by `userId` and not reimbursed, cancelled, used or expired — conditions re-checked
   * under the row lock, so of two trips started at once on one code one wins — with its
   * `trip_start` history row (details: the trip, its tour and window). Joins the caller's
   * transaction. Null when nothing moved (the caller reads the code to tell why).
   */
  async startTrip(codeId: string, userId: string, trip: TripStart): Promise<CodeView | null> {
    const rows: CodeRow[] = await this.codes.query(
      `WITH target AS (
         SELECT c.id, ${statusSql('c')} AS from_status
           FROM activation_codes c
          WHERE c.id = $1
            AND c.claimed_by_user_id = $2
            AND c.reimbursed_at IS NULL AND c.cancelled_at IS NULL AND c.used_at IS NULL
            AND c.trip_starts_on IS NULL
            AND (c.expires_at IS NULL OR c.expires_at >= now())
            FOR UPDATE
       ), moved AS (
         UPDATE activation_codes c
            SET used_at = now(), trip_starts_on = $3::date, trip_ends_on = $4::date
           FROM target t
          WHERE c.id = t.id
         RETURNING c.*, t.from_status
       ), logged AS (
         INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at, details)
         SELECT c.id, 'trip_start', c.from_status, ${statusSql('c')}, $2, now(),
                jsonb_build_object('trip_id', $5::uuid, 'tour_id', $6::uuid,
                                   'starts_on', $3::text, 'ends_on', $4::text)
           FROM moved c
       )
       SELECT ${CODE_COLUMNS} FROM moved c JOIN activation_code_batches b ON b.id = c.batch_id`,
      [codeId, userId, trip.startsOn, trip.endsOn, trip.tripId, trip.tourId],
    );
    return rows[0] ? toCodeView(rows[0]) : null;
  }

  // --- batches ------------------------------------------------------------------------------------

  async findBatch(id: string): Promise<BatchView | null> {
    const rows: BatchRow[] = await this.batches.query(
      `SELECT ${BATCH_COLUMNS} FROM activation_code_batches b WHERE b.id = $1`,
      [id],
    );
    return rows[0] ? toBatchView(rows[0]) : null;
  }

  /**
   * One page of batches, newest first, and the size of the filtered set. By organization on
   * activation_code_batches_organization_number_unique, else activation_code_batches_created_idx.
   */
  async findBatchPage(
    filter: BatchFilter,
    page: { limit: number; offset: number },
  ): Promise<[BatchView[], number]> {
    const values: unknown[] = [];
    const conditions: string[] = [];
    if (filter.organizationId) {
      values.push(filter.organizationId);
      conditions.push(`b.organization_id = $${values.length}`);
    }
    if (filter.batchNumber !== undefined) {
      values.push(filter.batchNumber);
      conditions.push(`b.batch_number = $${values.length}`);
    }
    const where = conditions.length > 0 ? conditions.join(' AND ') : 'true';
    values.push(page.limit, page.offset);
    const rows: (BatchRow & { total: number })[] = await this.batches.query(
      `SELECT t.total, p.*
         FROM (SELECT count(*)::integer AS total FROM activation_code_batches b WHERE ${where}) t
         LEFT JOIN LATERAL (
           SELECT ${BATCH_COLUMNS} FROM activation_code_batches b WHERE ${where}
            ORDER BY b.created_at DESC, b.id DESC
            LIMIT $${values.length - 1} OFFSET $${values.length}) p ON true`,
      values,
    );
    const total = Number(rows[0]?.total ?? 0);
    return [rows.filter((row) => row.id !== null).map(toBatchView), total];
  }

  /** The counts by status of each batch's codes (activation_codes_batch_idx). */
  async countByStatusOfBatches(batchIds: string[]): Promise<Map<string, StatusCounts>> {
    const counts = new Map<string, StatusCounts>();
    if (batchIds.length === 0) return counts;
    const rows: (CountsRow & { batch_id: string })[] = await this.codes.query(
      `SELECT c.batch_id, ${statusCountsSql(CODE_STATUSES, 'c')}
         FROM activation_codes c
        WHERE c.batch_id = ANY($1::uuid[])
        GROUP BY c.batch_id`,
      [batchIds],
    );
    for (const id of batchIds) counts.set(id, toCounts(undefined));
    for (const row of rows) counts.set(row.batch_id, toCounts(row));
    return counts;
  }

  /** False when the batch does not exist. */
  async setBatchNote(id: string, internalNote: string | null): Promise<boolean> {
    const result = await this.batches.update({ id }, { internalNote });
    return (result.affected ?? 0) > 0;
  }

  /**
   * A new expiration for the batch and for each of its codes that is not used and does not have it
   * yet, with one `change_expiration` history row per code that changed, in one statement.
   * Answers how many codes changed, or null when the batch does not exist.
   */
  async setBatchExpiration(id: string, expiresAt: Date | null, actorUserId: string): Promise<number | null> {
    const rows: { batch_found: boolean; changed: number }[] = await this.batches.query(
      `WITH batch AS (
         UPDATE activation_code_batches SET expires_at = $2, updated_at = now() WHERE id = $1 RETURNING id
       ), target AS (
         SELECT c.id, ${statusSql('c')} AS from_status, c.expires_at AS old_expires_at
           FROM activation_codes c
          WHERE c.batch_id = $1 AND c.used_at IS NULL AND c.expires_at IS DISTINCT FROM $2
          ORDER BY c.id
            FOR UPDATE
       ), moved AS (
         UPDATE activation_codes c SET expires_at = $2
           FROM target t
          WHERE c.id = t.id
         RETURNING c.*, t.from_status, t.old_expires_at
       ), logged AS (
         INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at, details)
         SELECT c.id, 'change_expiration', c.from_status, ${statusSql('c')}, $3, now(),
                jsonb_build_object('from', c.old_expires_at, 'to', c.expires_at, 'batch_id', c.batch_id)
           FROM moved c
       )
       SELECT EXISTS (SELECT 1 FROM batch) AS batch_found, (SELECT count(*)::integer FROM moved) AS changed`,
      [id, expiresAt, actorUserId],
    );
    return rows[0].batch_found ? Number(rows[0].changed) : null;
  }

  // --- export -------------------------------------------------------------------------------------

  /**
   * The export's CSV lines in batches (arrays of lines written by PostgreSQL, see `exportSql`),
   * streamed with back-pressure: on a server,
   * from a cursor (pg-cursor) on a connection of its own taken from the pool, released when
   * the stream ends, fails or is destroyed (a client that goes away); on the embedded database,
   * whose pool is its single session, in keyset chunks of EXPORT_CHUNK_ROWS between which other
   * requests get the session. Either way memory holds one chunk, whatever the row count.
   */
  exportLines(filter: CodeFilter): Readable {
    const extra = (this.dataSource.options as { extra?: { max?: number } }).extra;
    return extra?.max === 1 ? this.exportInChunks(filter) : this.exportFromCursor(filter);
  }

  private exportFromCursor(filter: CodeFilter): Readable {
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const sql = exportSql(filter, { form: 'csv-lines' });
    let client: PoolClient | undefined;
    let cursor: Cursor<[string]> | undefined;
    let released = false;
    /** Back to the pool; with an error (given up half-way, mid-protocol) the pool discards it. */
    const release = (error?: Error) => {
      if (client && !released) client.release(error);
      released = true;
    };
    return new Readable({
      objectMode: true,
      highWaterMark: 1,
      // Called again only once the consumer has taken what was pushed: back-pressure.
      read() {
        const next = async () => {
          if (!client) {
            client = await pool.connect();
            if (this.destroyed) return release(new Error('export interrupted'));
            cursor = client.query(new Cursor<[string]>(sql.text, sql.values, { rowMode: 'array' }));
          }
          const rows = await cursor!.read(EXPORT_CURSOR_ROWS);
          if (this.destroyed) return;
          if (rows.length === 0) {
            await cursor!.close();
            release();
            this.push(null);
            return;
          }
          this.push(rows.map((row) => row[0]));
        };
        next().catch((error: Error) => this.destroy(error));
      },
      destroy(error, callback) {
        // A client that went away, or an error: the cursor may be mid-read.
        release(error ?? new Error('export interrupted'));
        callback(error);
      },
    });
  }

  private exportInChunks(filter: CodeFilter): Readable {
    const query = (text: string, values: unknown[]) => this.dataSource.query(text, values);
    async function* chunks(): AsyncGenerator<string[]> {
      let after: ExportKey | undefined;
      for (;;) {
        const sql = exportSql(filter, { form: 'csv-lines', chunk: { after, limit: EXPORT_CHUNK_ROWS } });
        const rows: { line: string; k_created_at: string; k_full_code: string }[] = await query(
          sql.text,
          sql.values,
        );
        yield rows.map((row) => row.line);
        if (rows.length < EXPORT_CHUNK_ROWS) return;
        const last = rows[rows.length - 1];
        after = { createdAt: last.k_created_at, fullCode: last.k_full_code };
      }
    }
    return Readable.from(chunks(), { objectMode: true, highWaterMark: 1 });
  }
}
