import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UpdatedAtColumn, UuidPrimaryColumn } from '../database/columns';
import type { PreferredLanguage } from '../common/preferred-language';

export const OUTBOX_STATES = ['pending', 'sent', 'failed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/**
 * One email to send, written in the transaction of the change that causes it (src/mail/mail-outbox.ts)
 * and delivered by the outbox worker. It holds what the template needs, never a secret: a
 * set-password link is issued when the message is composed for delivery.
 */
@Entity('mail_outbox')
@Check('mail_outbox_state_check', `"state" IN ('pending', 'sent', 'failed')`)
// The worker's claim: due pending messages, oldest first.
@Index('mail_outbox_due_idx', ['nextAttemptAt'], { where: `"state" = 'pending'` })
export class OutboxMessage {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  template!: string;

  @Column({ type: 'varchar', length: 255 })
  recipient!: string;

  @Column({ type: 'varchar', length: 8 })
  language!: PreferredLanguage;

  /** The template's values (names, ids); never a token or a password. */
  @Column({ type: 'jsonb' })
  payload!: Record<string, string>;

  /**
   * The W3C trace context (`traceparent`, `tracestate`) of the request that enqueued the message,
   * when it was traced: its delivery links to that trace.
   */
  @Column({ name: 'trace_context', type: 'jsonb', nullable: true })
  traceContext!: Record<string, string> | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state!: OutboxState;

  /** Delivery attempts started so far. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  /** While a worker delivers the message, no other worker claims it before this instant. */
  @TimestampColumn('locked_until', { nullable: true })
  lockedUntil!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @TimestampColumn('sent_at', { nullable: true })
  sentAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
