import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { transactional } from '../database/transactions';
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
    return this.changes.save(this.changes.create(change));
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
   * other, and the second finds it used.
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

  /** Marks the token used, only if it still is unused (false when another use came first). */
  async markTokenUsed(id: string, now: Date): Promise<boolean> {
    const result = await this.tokens.update({ id, usedAt: IsNull() }, { usedAt: now });
    return result.affected === 1;
  }
}
