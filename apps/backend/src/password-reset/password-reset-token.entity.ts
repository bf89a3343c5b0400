import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UuidPrimaryColumn } from '../database/columns';
import { User } from '../users/user.entity';

export const PASSWORD_TOKEN_PURPOSES = ['reset', 'invitation'] as const;
export type PasswordTokenPurpose = (typeof PASSWORD_TOKEN_PURPOSES)[number];

/**
 * A single-use token that sets a password: a reset (`POST /forgot-password`) or the first password
 * of an invited manager. Only the SHA-256 of the token is stored.
 */
@Entity('password_reset_tokens')
@Check('password_reset_tokens_purpose_check', `"purpose" IN ('reset', 'invitation')`)
@Index('password_reset_tokens_user_id_idx', ['userId'])
export class PasswordResetToken {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: PasswordTokenPurpose;

  /**
   * The address the link was mailed to: the token works only while the account's email is this
   * one (docs/decisions.md D-26). Null on rows the previous release wrote during its rollout.
   */
  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  /** Hex SHA-256 of the token. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  /**
   * The outbox message whose delivery issued the token. A second delivery of the same message
   * (after a crash between the SMTP server's acceptance and the outbox's mark) keeps the first
   * delivery's token usable: a receiver that de-duplicates the two (one Message-ID) may show
   * either. No foreign key: sent messages may be pruned.
   */
  @Column({ name: 'outbox_message_id', type: 'uuid', nullable: true })
  outboxMessageId!: string | null;

  @TimestampColumn('expires_at')
  expiresAt!: Date;

  @TimestampColumn('used_at', { nullable: true })
  usedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;
}
