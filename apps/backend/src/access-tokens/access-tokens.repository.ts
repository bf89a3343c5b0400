import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TransactionalRepository } from '../database/transactions';
import { PersonalAccessToken } from './personal-access-token.entity';

export interface NewTokenRow {
  id: string;
  userId: string;
  deviceName: string;
  tokenHash: string;
}

/** The one writer of `personal_access_tokens`; other features go through AccessTokensService. */
@Injectable()
export class AccessTokensRepository extends TransactionalRepository<PersonalAccessToken> {
  constructor(@InjectRepository(PersonalAccessToken) plain: Repository<PersonalAccessToken>) {
    super(plain);
  }

  async insert(token: NewTokenRow): Promise<void> {
    await this.repo.insert(token);
  }

  /** The token with its user, by primary key: one query per authenticated request. */
  findWithUser(id: string): Promise<PersonalAccessToken | null> {
    return this.repo.findOne({ where: { id }, relations: { user: true } });
  }

  /** Records a use, unless another request already did within `resolutionMs` (no write per request). */
  async touch(id: string, at: Date, resolutionMs: number): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: at })
      .where('id = :id', { id })
      .andWhere('(last_used_at IS NULL OR last_used_at < :stale)', {
        stale: new Date(at.getTime() - resolutionMs),
      })
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  /** Every token of the user: signs the user out of every device (personal_access_tokens_user_id_idx). */
  async deleteAllOfUser(userId: string): Promise<void> {
    await this.repo.delete({ userId });
  }

  /** Every token of the user but `keptTokenId` (personal_access_tokens_user_id_idx). */
  async deleteAllOfUserExcept(userId: string, keptTokenId: string): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .delete()
      .where('user_id = :userId AND id <> :keptTokenId', { userId, keptTokenId })
      .execute();
  }

  /** Tokens of the user unused since `before` (idle-expired). */
  async deleteIdleOfUser(userId: string, before: Date): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .delete()
      .where('user_id = :userId', { userId })
      .andWhere('COALESCE(last_used_at, created_at) < :before', { before })
      .execute();
  }
}
