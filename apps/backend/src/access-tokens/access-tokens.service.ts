import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import type { Authentication } from '../access/access';
import { accessTokenMatches, newAccessToken, parseAccessToken } from './access-token';
import { AccessTokenSettings } from './access-token.settings';
import { AccessTokensRepository } from './access-tokens.repository';

/** `last_used_at` is written at most once a minute per token. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class AccessTokensService {
  private readonly idleMs: number;

  constructor(
    private readonly tokens: AccessTokensRepository,
    private readonly clock: Clock,
    settings: AccessTokenSettings,
  ) {
    this.idleMs = settings.TOKEN_IDLE_DAYS * DAY_MS;
  }

  /** A new token for the device; the plain text is returned once and never stored. */
  async issue(userId: string, deviceName: string): Promise<string> {
    const token = newAccessToken();
    await this.tokens.deleteIdleOfUser(userId, new Date(this.clock.now().getTime() - this.idleMs));
    await this.tokens.insert({ id: token.id, userId, deviceName, tokenHash: token.hash });
    return token.plainText;
  }

  /**
   * The user behind a bearer token, or null when it is malformed, unknown, revoked or idle for
   * longer than TOKEN_IDLE_DAYS (an expired token is deleted on sight).
   */
  async authenticate(plainText: string | null): Promise<Authentication | null> {
    const parsed = plainText ? parseAccessToken(plainText) : null;
    if (!parsed) return null;
    const row = await this.tokens.findWithUser(parsed.id);
    if (!row?.user || !accessTokenMatches(parsed, row.tokenHash)) return null;
    const now = this.clock.now();
    const lastUse = row.lastUsedAt ?? row.createdAt;
    if (now.getTime() - lastUse.getTime() > this.idleMs) {
      await this.tokens.delete(row.id);
      return null;
    }
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.tokens.touch(row.id, now, LAST_USED_RESOLUTION_MS);
    }
    const { user } = row;
    return { tokenId: row.id, user: { id: user.id, email: user.email, isSuperAdmin: user.isSuperAdmin } };
  }

  revoke(tokenId: string): Promise<void> {
    return this.tokens.delete(tokenId);
  }

  /** Signs the user out of every device (a password reset, a super-admin reset). */
  revokeAllOfUser(userId: string): Promise<void> {
    return this.tokens.deleteAllOfUser(userId);
  }

  /** Signs the user out of every device but the one of `keptTokenId` (all of them when null): a confirmed email change. */
  revokeAllOfUserExcept(userId: string, keptTokenId: string | null): Promise<void> {
    return keptTokenId === null
      ? this.tokens.deleteAllOfUser(userId)
      : this.tokens.deleteAllOfUserExcept(userId, keptTokenId);
  }
}
