import { Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { User } from './user.entity';

/**
 * A change of a user's email asked by `PUT /user` (docs/decisions.md D-70): pending until the new
 * address confirms it (then `confirmed_at`), cancelled by a newer change, a report from the old
 * address, or an address taken meanwhile (`cancelled_at`). Its links are `email_change_tokens`.
 * While its report link works, the old address stays reserved to the user.
 */
@Entity('email_changes')
@Index('email_changes_user_id_idx', ['userId'])
@Index('email_changes_old_email_canonical_idx', ['oldEmailCanonical'])
export class EmailChange {
  @UuidPrimaryColumn()
  id!: string;

  @UuidColumn('user_id')
  userId!: string;

  /** The email when the change was asked; where the notice goes, and what a report restores. */
  @Column({ name: 'old_email', type: 'varchar', length: 255 })
  oldEmail!: string;

  /**
   * canonicalEmail(oldEmail) (D-77): the reserved old addresses are looked up on it. Null on rows
   * the previous release wrote during a rollout, which reserve nothing.
   */
  @Column({ name: 'old_email_canonical', type: 'varchar', length: 255, nullable: true })
  oldEmailCanonical!: string | null;

  @Column({ name: 'new_email', type: 'varchar', length: 255 })
  newEmail!: string;

  /** The sign-in token that asked: the one token a confirmation keeps. No foreign key: it may be revoked. */
  @UuidColumn('requested_by_token_id', { nullable: true })
  requestedByTokenId!: string | null;

  /** Until when the confirmation link works (EMAIL_CHANGE_TTL_HOURS). */
  @TimestampColumn('expires_at')
  expiresAt!: Date;

  /** Until when the report link of the notice works (EMAIL_CHANGE_REPORT_TTL_DAYS). */
  @TimestampColumn('report_expires_at')
  reportExpiresAt!: Date;

  @TimestampColumn('confirmed_at', { nullable: true })
  confirmedAt!: Date | null;

  @TimestampColumn('cancelled_at', { nullable: true })
  cancelledAt!: Date | null;

  @TimestampColumn('reported_at', { nullable: true })
  reportedAt!: Date | null;

  /**
   * When a report ended this change's report link: its own, or the report of an earlier change of
   * the user (a later change's notice went to an address that came after, D-70).
   */
  @TimestampColumn('report_ended_at', { nullable: true })
  reportEndedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @BelongsTo(() => User, 'user_id', 'CASCADE')
  user?: User;
}
