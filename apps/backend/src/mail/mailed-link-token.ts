import {
  CreatedAtColumn,
  TimestampColumn,
  TokenHashColumn,
  UuidColumn,
  UuidPrimaryColumn,
} from '../database/columns';

/**
 * The columns every token of a mailed link has (a password reset or invitation, an email change,
 * a contact consent): issued when its email is delivered, one per delivery, so the outbox never
 * holds it; only its SHA-256 is stored; single use (`used_at`). Each token entity extends it with
 * its owner, its own columns and its indexes (TypeORM's concrete table inheritance: one table
 * each, as before).
 */
export abstract class MailedLinkToken {
  @UuidPrimaryColumn()
  id!: string;

  /** Hex SHA-256 of the token. */
  @TokenHashColumn()
  tokenHash!: string;

  /** The outbox message whose delivery issued it (no foreign key: sent messages may be pruned). */
  @UuidColumn('outbox_message_id', { nullable: true })
  outboxMessageId!: string | null;

  @TimestampColumn('used_at', { nullable: true })
  usedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
