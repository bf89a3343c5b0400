import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { User } from '../users/user.entity';
import { PasswordResetToken, PasswordTokenPurpose } from './password-reset-token.entity';

@Injectable()
export class PasswordResetTokensRepository {
  constructor(@InjectRepository(PasswordResetToken) private readonly repo: Repository<PasswordResetToken>) {}

  /** Stores a new token and drops the user's earlier unused ones: only the latest link works. */
  async replaceUnused(
    userId: string,
    purpose: PasswordTokenPurpose,
    tokenHash: string,
    expiresAt: Date,
  ): Promise<void> {
    await this.repo.manager.transaction(async (manager) => {
      await manager.delete(PasswordResetToken, { userId, usedAt: IsNull() });
      await manager.insert(PasswordResetToken, { userId, purpose, tokenHash, expiresAt });
    });
  }

  /** The user's tokens that are neither used nor expired (at most one, see replaceUnused). */
  findUsableOfUser(userId: string, now: Date): Promise<PasswordResetToken[]> {
    return this.repo.find({ where: { userId, usedAt: IsNull(), expiresAt: MoreThan(now) } });
  }

  /**
   * Uses the token and sets the password, in one transaction: the token is marked used only if it
   * still is unused and unexpired (so two concurrent resets cannot both succeed), then the
   * password changes and every sign-in token of the user is revoked. False when the token was
   * no longer usable (nothing changed).
   */
  async consumeAndSetPassword(
    tokenId: string,
    userId: string,
    passwordHash: string,
    now: Date,
  ): Promise<boolean> {
    return this.repo.manager.transaction(async (manager) => {
      const used = await manager
        .createQueryBuilder()
        .update(PasswordResetToken)
        .set({ usedAt: now })
        .where('id = :tokenId AND user_id = :userId', { tokenId, userId })
        .andWhere('used_at IS NULL AND expires_at > :now', { now })
        .execute();
      if (used.affected !== 1) return false;
      await manager.update(User, { id: userId }, { passwordHash });
      await manager.query('DELETE FROM personal_access_tokens WHERE user_id = $1', [userId]);
      await manager.delete(PasswordResetToken, { userId, usedAt: IsNull() });
      return true;
    });
  }
}
