import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { transactional } from '../database/transactions';
import { canonicalEmail } from './email-address';
import { EmailChangeToken, EmailChangeTokenPurpose } from './email-change-token.entity';
import { EmailChange } from './email-change.entity';

export interface NewEmailChange {
  userId: string;
  oldEmail: string;
  newEmail: string;
  requestedByTokenId: string | null;
  expiresAt: Date;
  reportExpiresAt: Date;
}

/** The one writer of `email_changes` and `email_change_tokens` (docs/decisions.md D-70). */
@Injectable()
export class EmailChangesRepository {
  constructor(
    @InjectRepository(EmailChange) private readonly plainChanges: Repository<EmailChange>,
    @InjectRepository(EmailChangeToken) private readonly plainTokens: Repository<EmailChangeToken>,
  ) {}

  /** The current transaction's repositories inside `Transactions.run`, else the plain ones. */
  private get changes(): Repository<EmailChange> {
    return transactional(this.plainChanges);
  }

  private get tokens(): Repository<EmailChangeToken> {
    return transactional(this.plainTokens);
  }

  insert(change: NewEmailChange): Promise<EmailChange> {
    return this.changes.save(
      this.changes.create({ ...change, oldEmailCanonical: canonicalEmail(change.oldEmail) }),
    );
  }

  findById(id: string): Promise<EmailChange | null> {
    return this.changes.findOneBy({ id });
  }

  /** The user's change that is neither confirmed, cancelled nor expired (at most one; email_changes_user_id_idx). */
  findPendingOfUser(userId: string, now: Date): Promise<EmailChange | null> {
    return this.changes
      .createQueryBuilder('c')
      .where('c.user_id = :userId', { userId })
      .andWhere('c.confirmed_at IS NULL AND c.cancelled_at IS NULL AND c.expires_at > :now', { now })
      .orderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getOne();
  }

  /** Cancels the user's changes still waiting for their confirmation (a newer change, a report). */
  async cancelPendingOfUser(userId: string, now: Date): Promise<void> {
    await this.changes.update({ userId, confirmedAt: IsNull(), cancelledAt: IsNull() }, { cancelledAt: now });
  }

  async markConfirmed(id: string, now: Date): Promise<void> {
    await this.changes.update({ id }, { confirmedAt: now });
  }

  async markCancelled(id: string, now: Date): Promise<void> {
    await this.changes.update({ id, cancelledAt: IsNull() }, { cancelledAt: now });
  }

  async markReported(id: string, now: Date): Promise<void> {
    await this.changes.update({ id }, { reportedAt: now });
  }

  async addToken(
    emailChangeId: string,
    purpose: EmailChangeTokenPurpose,
    tokenHash: string,
    outboxMessageId: string,
  ): Promise<void> {
    await this.tokens.insert({ emailChangeId, purpose, tokenHash, outboxMessageId });
  }

  /**
   * The unused token of this purpose with this hash (email_change_tokens_token_hash_unique) and its
   * change, both rows locked until the transaction ends: two uses of one link run one after the
   * other, and the second finds it used. Callers lock the user's row first
   * (UsersRepository.findByIdForUpdate), as every writer of one account's links does, so a report
   * and a confirmation of one user never wait on each other's rows.
   */
  async findUnusedTokenForUpdate(
    tokenHash: string,
    purpose: EmailChangeTokenPurpose,
  ): Promise<{ token: EmailChangeToken; change: EmailChange } | null> {
    const token = await this.tokens
      .createQueryBuilder('t')
      .where('t.token_hash = :tokenHash AND t.purpose = :purpose', { tokenHash, purpose })
      .andWhere('t.used_at IS NULL')
      .setLock('pessimistic_write')
      .getOne();
    if (!token) return null;
    const change = await this.changes
      .createQueryBuilder('c')
      .where('c.id = :id', { id: token.emailChangeId })
      .setLock('pessimistic_write')
      .getOne();
    return change ? { token, change } : null;
  }

  /** The user of the change of an unused token of this purpose (no lock: see findUnusedTokenForUpdate). */
  async findUserIdOfUnusedToken(tokenHash: string, purpose: EmailChangeTokenPurpose): Promise<string | null> {
    const row = await this.changes
      .createQueryBuilder('c')
      .select('c.user_id', 'userId')
      .innerJoin(EmailChangeToken, 't', 't.email_change_id = c.id')
      .where('t.token_hash = :tokenHash AND t.purpose = :purpose', { tokenHash, purpose })
      .andWhere('t.used_at IS NULL')
      .getRawOne<{ userId: string }>();
    return row?.userId ?? null;
  }

  /**
   * Whether `email` is the old address of a change of another user (any user when `userId` is
   * null) whose report link still works: reserved to that user (docs/decisions.md D-70),
   * compared in its canonical form (D-77; email_changes_old_email_canonical_idx).
   */
  reservedForAnother(email: string, userId: string | null, now: Date): Promise<boolean> {
    const query = this.changes
      .createQueryBuilder('c')
      .where('c.old_email_canonical = :canonical', { canonical: canonicalEmail(email) })
      .andWhere('c.report_expires_at > :now AND c.report_ended_at IS NULL', { now });
    if (userId !== null) query.andWhere('c.user_id <> :userId', { userId });
    return query.getExists();
  }

  /**
   * A report of `changeId`: ends the report link of that change and of every later change of the
   * user (their notices went to addresses set after it), and every unused confirmation link of
   * the user. Earlier changes' report links keep working (docs/decisions.md D-70).
   */
  async endLinksAfterReport(userId: string, changeId: string, now: Date): Promise<void> {
    await this.changes
      .createQueryBuilder()
      .update()
      .set({ reportEndedAt: now })
      .where('user_id = :userId AND report_ended_at IS NULL', { userId })
      .andWhere('created_at >= (SELECT r.created_at FROM email_changes r WHERE r.id = :changeId)', {
        changeId,
      })
      .execute();
    await this.tokens
      .createQueryBuilder()
      .update()
      .set({ usedAt: now })
      .where('used_at IS NULL')
      .andWhere(
        `email_change_id IN (SELECT c.id FROM email_changes c WHERE c.user_id = :userId
           AND (email_change_tokens.purpose = 'confirm' OR c.report_ended_at IS NOT NULL))`,
        { userId },
      )
      .execute();
  }

  /** Marks the token used, only if it still is unused (false when another use came first). */
  async markTokenUsed(id: string, now: Date): Promise<boolean> {
    const result = await this.tokens.update({ id, usedAt: IsNull() }, { usedAt: now });
    return result.affected === 1;
  }
}
