import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { pageWithTotalSql, splitPage } from '@rt/database';
import { QueryFailedError, Repository } from 'typeorm';
import { touchedAny } from '../database/row-statements';
import { transactional } from '../database/transactions';
import { ActivationCodeBatch } from './activation-code-batch.entity';
import { codeMoveSql } from './activation-code-moves.sql';
import { BatchView, CountsRow, StatusCounts, toCounts } from './activation-code.rows';
import { CODE_STATUSES } from './activation-code-status';
import { statusCountsSql } from './activation-code-status.sql';

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

/**
 * The batches (`activation_code_batches`) and their numbering (`activation_code_batch_counters`):
 * a generation's batch, the listing with the counts of each batch's codes, the note, and a new
 * expiration, which moves the batch's codes with their history (`codeMoveSql`).
 */
@Injectable()
export class ActivationCodeBatchesRepository {
  constructor(
    @InjectRepository(ActivationCodeBatch) private readonly plainBatches: Repository<ActivationCodeBatch>,
  ) {}

  /** The current transaction's repository inside `Transactions.run`, else the plain one. */
  private get batches(): Repository<ActivationCodeBatch> {
    return transactional(this.plainBatches);
  }

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
    const sql = pageWithTotalSql({
      counted: `activation_code_batches b WHERE ${where}`,
      page: `
           SELECT ${BATCH_COLUMNS} FROM activation_code_batches b WHERE ${where}
            ORDER BY b.created_at DESC, b.id DESC
            LIMIT $${values.length - 1} OFFSET $${values.length}`,
      values,
    });
    const rows: (BatchRow & { total: number })[] = await this.batches.query(sql.text, sql.values);
    const { items, total } = splitPage(rows, toBatchView);
    return [items, total];
  }

  /** The counts by status of each batch's codes (activation_codes_batch_idx). */
  async countByStatusOfBatches(batchIds: string[]): Promise<Map<string, StatusCounts>> {
    const counts = new Map<string, StatusCounts>();
    if (batchIds.length === 0) return counts;
    const rows: (CountsRow & { batch_id: string })[] = await this.batches.query(
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
    return touchedAny(await this.batches.update({ id }, { internalNote }));
  }

  /**
   * A new expiration for the batch and for each of its codes that is not used and does not have it
   * yet, with one `change_expiration` history row per code that changed, in one statement.
   * Answers how many codes changed, or null when the batch does not exist.
   */
  async setBatchExpiration(id: string, expiresAt: Date | null, actorUserId: string): Promise<number | null> {
    const sql = codeMoveSql(
      {
        action: 'change_expiration',
        with: `batch AS (
         UPDATE activation_code_batches SET expires_at = $2, updated_at = now() WHERE id = $1 RETURNING id
       )`,
        where: 'c.batch_id = $1 AND c.used_at IS NULL AND c.expires_at IS DISTINCT FROM $2',
        lockInIdOrder: true,
        before: { old_expires_at: 'c.expires_at' },
        set: 'expires_at = $2',
        actor: '$3',
        details: `jsonb_build_object('from', c.old_expires_at, 'to', c.expires_at, 'batch_id', c.batch_id)`,
        answer: `SELECT EXISTS (SELECT 1 FROM batch) AS batch_found, (SELECT count(*)::integer FROM moved) AS changed`,
      },
      [id, expiresAt, actorUserId],
    );
    const rows: { batch_found: boolean; changed: number }[] = await this.batches.query(sql.text, sql.values);
    return rows[0].batch_found ? Number(rows[0].changed) : null;
  }
}
