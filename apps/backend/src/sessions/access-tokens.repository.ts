import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PersonalAccessToken } from './personal-access-token.entity';

export interface NewTokenRow {
  id: string;
  userId: string;
  deviceName: string;
  tokenHash: string;
}

@Injectable()
export class AccessTokensRepository {
  constructor(
    @InjectRepository(PersonalAccessToken) private readonly repo: Repository<PersonalAccessToken>,
  ) {}

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
