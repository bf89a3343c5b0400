import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UuidPrimaryColumn } from '../database/columns';
import { EmailChange } from './email-change.entity';

export const EMAIL_CHANGE_TOKEN_PURPOSES = ['confirm', 'report'] as const;
export type EmailChangeTokenPurpose = (typeof EMAIL_CHANGE_TOKEN_PURPOSES)[number];

/**
 * The token of an email change's link: `confirm` (mailed to the new address) or `report` (the
 * notice to the old one). Issued when the email is delivered, one per delivery, so the outbox never
 * holds it; only its SHA-256 is stored. Single-use.
 */
@Entity('email_change_tokens')
@Check('email_change_tokens_purpose_check', `"purpose" IN ('confirm', 'report')`)
@Index('email_change_tokens_token_hash_unique', ['tokenHash'], { unique: true })
@Index('email_change_tokens_email_change_id_idx', ['emailChangeId'])
export class EmailChangeToken {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ name: 'email_change_id', type: 'uuid' })
  emailChangeId!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: EmailChangeTokenPurpose;

  /** Hex SHA-256 of the token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  /** The outbox message whose delivery issued it (no foreign key: sent messages may be pruned). */
  @Column({ name: 'outbox_message_id', type: 'uuid', nullable: true })
  outboxMessageId!: string | null;

  @TimestampColumn('used_at', { nullable: true })
  usedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @ManyToOne(() => EmailChange, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'email_change_id' })
  emailChange?: EmailChange;
}
