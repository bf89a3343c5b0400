import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TransactionalRepository } from '../database/transactions';
import type { PreferredLanguage } from '../common/preferred-language';
import { OutboxMessage, OutboxState } from './outbox-message.entity';

export interface NewOutboxMessage {
  template: string;
  recipient: string;
  language: PreferredLanguage;
  payload: Record<string, string>;
  traceContext: Record<string, string> | null;
}

/** The one writer of `mail_outbox`. */
@Injectable()
export class OutboxRepository extends TransactionalRepository<OutboxMessage> {
  constructor(@InjectRepository(OutboxMessage) plain: Repository<OutboxMessage>) {
    super(plain);
  }

  async insert(message: NewOutboxMessage): Promise<void> {
    await this.repo.insert(message);
  }

  /**
   * Reserves up to `limit` due messages for one worker: pending, due, and not reserved by another
   * worker (or its reservation ran out). `FOR UPDATE SKIP LOCKED` lets concurrent workers claim
   * disjoint sets; the reservation (`locked_until`) then keeps them disjoint after this statement
   * commits, while the messages are being sent. Each claim counts as an attempt.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<OutboxMessage[]> {
    const [rows]: [Record<string, unknown>[], number] = await this.repo.query(
      `UPDATE mail_outbox m
          SET attempts = m.attempts + 1,
              locked_until = now() + make_interval(secs => $2),
              updated_at = now()
        WHERE m.id IN (
              SELECT id FROM mail_outbox
               WHERE state = 'pending' AND next_attempt_at <= now()
                 AND (locked_until IS NULL OR locked_until <= now())
               ORDER BY next_attempt_at, id
               LIMIT $1
               FOR UPDATE SKIP LOCKED)
    RETURNING m.id, m.template, m.recipient, m.language, m.payload, m.attempts, m.trace_context`,
      [limit, leaseSeconds],
    );
    return rows.map((row) =>
      this.plain.create({
        id: row.id as string,
        template: row.template as string,
        recipient: row.recipient as string,
        language: row.language as PreferredLanguage,
        payload: row.payload as Record<string, string>,
        attempts: row.attempts as number,
        traceContext: row.trace_context as Record<string, string> | null,
      }),
    );
  }

  async markSent(id: string): Promise<void> {
    await this.repo.query(
      `UPDATE mail_outbox SET state = 'sent', sent_at = now(), locked_until = NULL, last_error = NULL,
              updated_at = now()
        WHERE id = $1`,
      [id],
    );
  }

  /** A failed attempt: due again after `retryInSeconds`, or `failed` for good when `final`. */
  async markAttemptFailed(id: string, error: string, retryInSeconds: number, final: boolean): Promise<void> {
    await this.repo.query(
      `UPDATE mail_outbox
          SET state = CASE WHEN $4 THEN 'failed' ELSE 'pending' END,
              next_attempt_at = now() + make_interval(secs => $3),
              locked_until = NULL, last_error = $2, updated_at = now()
        WHERE id = $1`,
      [id, error, retryInSeconds, final],
    );
  }

  /** Messages per state (every state present, zero included): the `mail_outbox_messages` gauge. */
  async countByState(): Promise<Record<OutboxState, number>> {
    const rows: { state: OutboxState; count: string }[] = await this.repo.query(
      `SELECT state, count(*) AS count FROM mail_outbox GROUP BY state`,
    );
    const counts: Record<OutboxState, number> = { pending: 0, sent: 0, failed: 0 };
    for (const row of rows) counts[row.state] = Number(row.count);
    return counts;
  }

  /**
   * Seconds since the oldest pending message was enqueued (0 when none waits): the
   * `mail_outbox_oldest_pending_age_seconds` gauge. Reads the pending rows only, which the partial
   * index `mail_outbox_due_idx` (`WHERE state = 'pending'`) covers.
   */
  async oldestPendingAgeSeconds(): Promise<number> {
    const [row]: { age: string | number | null }[] = await this.repo.query(
      `SELECT EXTRACT(EPOCH FROM now() - min(created_at)) AS age FROM mail_outbox WHERE state = 'pending'`,
    );
    return row?.age === null || row?.age === undefined ? 0 : Math.max(0, Number(row.age));
  }
}
