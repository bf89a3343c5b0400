import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { splitPage } from '@rt/database';
import { Repository } from 'typeorm';
import { transactional } from '../database/transactions';
import { CODE_COLUMNS, CodeFilter, listingSql } from './activation-code-listing.sql';
import { type CodeMove, codeEventsSql, codeMoveSql } from './activation-code-moves.sql';
import {
  CodeEventView,
  CodeRow,
  CodeView,
  CountsRow,
  StatusCounts,
  toCodeView,
  toCounts,
  type BatchView,
} from './activation-code.rows';
import { CODE_STATUSES, type BulkAction, type CodeStatus } from './activation-code-status';
import { statusCountsSql, transitionSourceSql } from './activation-code-status.sql';
import { ActivationCode } from './activation-code.entity';
import type { CodeAction } from './activation-code-event.entity';

/** A trip starting on a code: its id and tour (for the history) and its window (`YYYY-MM-DD`). */
export interface TripStart {
  tripId: string;
  tourId: string;
  startsOn: string;
  endsOn: string;
}

/**
 * The codes (`activation_codes`) and their history (`activation_code_events`): reads, the
 * generation's insert, and the lifecycle moves, each one statement built by `codeMoveSql` that
 * moves the codes whose state allows it (`transitionSourceSql`, re-checked on the latest row
 * version under the row lock: a concurrent identical call finds them moved) and appends their
 * history rows. Batches are ActivationCodeBatchesRepository's, the export
 * ActivationCodeExportRepository's.
 */
@Injectable()
export class ActivationCodesRepository {
  constructor(@InjectRepository(ActivationCode) private readonly plainCodes: Repository<ActivationCode>) {}

  /** The current transaction's repository inside `Transactions.run`, else the plain one. */
  private get codes(): Repository<ActivationCode> {
    return transactional(this.plainCodes);
  }

  // --- generation -------------------------------------------------------------------------------

  /**
   * Inserts the codes of a batch in one statement (an unnest of the array), with one `generate`
   * history row per code, and answers how many were inserted: a code that already exists
   * (activation_codes_full_code_unique) is left out, and the caller generates that many again.
   */
  async insertCodes(batch: BatchView, fullCodes: string[], actorUserId: string): Promise<number> {
    const values: unknown[] = [
      fullCodes,
      batch.organizationId,
      batch.id,
      batch.expiresAt,
      batch.createdAt,
      actorUserId,
    ];
    const logged = codeEventsSql('inserted', { action: 'generate', fromStatus: 'NULL', actor: '$6' }, values);
    const rows: { inserted: number }[] = await this.codes.query(
      `WITH inserted AS (
         INSERT INTO activation_codes (full_code, organization_id, batch_id, expires_at, created_at)
         SELECT code, $2, $3, $4, $5 FROM unnest($1::text[]) AS code
         ON CONFLICT (full_code) DO NOTHING
         RETURNING *
       ), logged AS (
         ${logged}
       )
       SELECT count(*)::integer AS inserted FROM inserted`,
      values,
    );
    return Number(rows[0].inserted);
  }

  // --- reads --------------------------------------------------------------------------------------

  /** One page of the filtered codes and the size of the filtered set (one statement). */
  async findPage(filter: CodeFilter, page: { limit: number; offset: number }): Promise<[CodeView[], number]> {
    const sql = listingSql(filter, page);
    const rows: (CodeRow & { total: number })[] = await this.codes.query(sql.text, sql.values);
    const { items, total } = splitPage(rows, toCodeView);
    return [items, total];
  }

  findById(id: string): Promise<CodeView | null> {
    return this.findOneWhere('c.id = $1', id);
  }

  /** On activation_codes_full_code_unique. */
  findByFullCode(fullCode: string): Promise<CodeView | null> {
    return this.findOneWhere('c.full_code = $1', fullCode);
  }

  /** The one code of a unique key (`condition` on `$1`). */
  private async findOneWhere(
    condition: 'c.id = $1' | 'c.full_code = $1',
    value: string,
  ): Promise<CodeView | null> {
    const rows: CodeRow[] = await this.codes.query(
      `SELECT ${CODE_COLUMNS} FROM activation_codes c JOIN activation_code_batches b ON b.id = c.batch_id
        WHERE ${condition}`,
      [value],
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
   * Makes `action` on those of `ids` whose state allows it, in one statement (locked in id order,
   * so concurrent calls never deadlock). Answers the moved codes; the others did not change. A
   * renewal leaves out codes whose expiration is already the new one.
   */
  async move(
    action: BulkAction,
    ids: string[],
    actorUserId: string,
    newExpiration?: Date,
  ): Promise<CodeView[]> {
    const values: unknown[] = [ids, actorUserId];
    let where = `c.id = ANY($1::uuid[]) AND ${transitionSourceSql(action, 'c')}`;
    let change: Pick<CodeMove, 'set' | 'before' | 'details'>;
    switch (action) {
      case 'cancel':
        change = { set: 'cancelled_at = now()' };
        break;
      case 'reimburse':
        change = { set: 'reimbursed_at = now(), cancelled_at = coalesce(c.cancelled_at, now())' };
        break;
      case 'renew':
        values.push(newExpiration);
        where += ' AND c.expires_at IS DISTINCT FROM $3';
        change = {
          set: 'expires_at = $3',
          before: { old_expires_at: 'c.expires_at' },
          details: `jsonb_build_object('from', c.old_expires_at, 'to', c.expires_at)`,
        };
        break;
    }
    const sql = codeMoveSql({ action, where, lockInIdOrder: true, actor: '$2', ...change }, values);
    const rows: CodeRow[] = await this.codes.query(sql.text, sql.values);
    return rows.map(toCodeView);
  }

  /**
   * The claim, in one statement: the code (by its stored form) is claimed by the user and marked
   * purchased (when not yet) if nobody holds it and it is not reimbursed, cancelled or expired —
   * conditions re-checked under the row lock, so of two users claiming at once one wins. Null
   * when nothing moved (the caller reads the code to tell why).
   */
  async claim(fullCode: string, userId: string): Promise<CodeView | null> {
    const sql = codeMoveSql(
      {
        action: 'claim',
        where: `c.full_code = $1
            AND c.claimed_by_user_id IS NULL
            AND c.reimbursed_at IS NULL AND c.cancelled_at IS NULL
            AND (c.expires_at IS NULL OR c.expires_at >= now())`,
        lockInIdOrder: false,
        set: 'claimed_by_user_id = $2, purchased_at = coalesce(c.purchased_at, now())',
        actor: '$2',
      },
      [fullCode, userId],
    );
    const rows: CodeRow[] = await this.codes.query(sql.text, sql.values);
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
    const sql = codeMoveSql(
      {
        action: 'trip_start',
        where: `c.id = $1
            AND c.claimed_by_user_id = $2
            AND c.reimbursed_at IS NULL AND c.cancelled_at IS NULL AND c.used_at IS NULL
            AND c.trip_starts_on IS NULL
            AND (c.expires_at IS NULL OR c.expires_at >= now())`,
        lockInIdOrder: false,
        set: 'used_at = now(), trip_starts_on = $3::date, trip_ends_on = $4::date',
        actor: '$2',
        details: `jsonb_build_object('trip_id', $5::uuid, 'tour_id', $6::uuid,
                                     'starts_on', $3::text, 'ends_on', $4::text)`,
      },
      [codeId, userId, trip.startsOn, trip.endsOn, trip.tripId, trip.tourId],
    );
    const rows: CodeRow[] = await this.codes.query(sql.text, sql.values);
    return rows[0] ? toCodeView(rows[0]) : null;
  }
}
