import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { TransactionalRepository, Transactions } from '../database/transactions';
import { PasswordResetToken, PasswordTokenPurpose } from './password-reset-token.entity';

export interface NewPasswordToken {
  userId: string;
  purpose: PasswordTokenPurpose;
  /** The address the email goes to. */
  email: string;
  tokenHash: string;
  expiresAt: Date;
  outboxMessageId: string;
}

/** The one writer of `password_reset_tokens`. */
@Injectable()
export class PasswordResetTokensRepository extends TransactionalRepository<PasswordResetToken> {
  constructor(
    @InjectRepository(PasswordResetToken) plain: Repository<PasswordResetToken>,
    private readonly transactions: Transactions,
  ) {
    super(plain);
  }

  /**
   * Stores a new token, issued by the delivery of outbox message `outboxMessageId`, and drops the
   * user's unused tokens issued by other messages: only the latest email's link works, whichever
   * of its deliveries (one Message-ID) the recipient keeps.
   */
  async replaceUnused(token: NewPasswordToken): Promise<void> {
    await this.transactions.run(async () => {
      await this.repo
        .createQueryBuilder()
        .delete()
        .where('user_id = :userId AND used_at IS NULL', { userId: token.userId })
        .andWhere('outbox_message_id IS DISTINCT FROM :outboxMessageId', {
          outboxMessageId: token.outboxMessageId,
        })
        .execute();
      await this.repo.insert(token);
    });
  }

  /** The user's tokens that are neither used nor expired (those of one email, see replaceUnused). */
  findUsableOfUser(userId: string, now: Date): Promise<PasswordResetToken[]> {
    return this.repo.find({ where: { userId, usedAt: IsNull(), expiresAt: MoreThan(now) } });
  }

  /**
   * Marks the token used, only if it still is unused and unexpired: in a transaction, the row
   * stays locked until the end, so two concurrent resets cannot both succeed. False when the token
   * was no longer usable (nothing changed).
   */
  async markUsed(tokenId: string, userId: string, now: Date): Promise<boolean> {
    const used = await this.repo
      .createQueryBuilder()
      .update()
      .set({ usedAt: now })
      .where('id = :tokenId AND user_id = :userId', { tokenId, userId })
      .andWhere('used_at IS NULL AND expires_at > :now', { now })
      .execute();
    return used.affected === 1;
  }

  /**
   * Drops the user's unused tokens: after a reset no other link of the user works, nor after a
   * confirmed email change or a report (docs/decisions.md D-70).
   */
  async deleteUnusedOfUser(userId: string): Promise<void> {
    await this.repo.delete({ userId, usedAt: IsNull() });
  }
}
