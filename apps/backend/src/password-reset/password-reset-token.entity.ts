import { Check, Column, Entity, Index } from 'typeorm';
import { TimestampColumn, UuidColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { MailedLinkToken } from '../mail/mailed-link-token';
import { User } from '../users/user.entity';

export const PASSWORD_TOKEN_PURPOSES = ['reset', 'invitation'] as const;
export type PasswordTokenPurpose = (typeof PASSWORD_TOKEN_PURPOSES)[number];

/**
 * A single-use token that sets a password: a reset (`POST /forgot-password`) or the first password
 * of an invited manager. A second delivery of the same outbox message (after a crash between the
 * SMTP server's acceptance and the outbox's mark) keeps the first delivery's token usable: a
 * receiver that de-duplicates the two (one Message-ID) may show either.
 */
@Entity('password_reset_tokens')
@Check('password_reset_tokens_purpose_check', `"purpose" IN ('reset', 'invitation')`)
@Index('password_reset_tokens_user_id_idx', ['userId'])
export class PasswordResetToken extends MailedLinkToken {
  @UuidColumn('user_id')
  userId!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: PasswordTokenPurpose;

  /**
   * The address the link was mailed to: the token works only while the account's email is this
   * one (docs/decisions.md D-26). Null on rows the previous release wrote during its rollout.
   */
  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @TimestampColumn('expires_at')
  expiresAt!: Date;

  @BelongsTo(() => User, 'user_id', 'CASCADE')
  user?: User;
}
