import type { Clock } from '../common/clock';
import type { BackendConfig } from '../config';
import type { User } from '../users/user.entity';
import { newAccessToken } from './access-token';
import type { AccessTokensRepository, NewTokenRow } from './access-tokens.repository';
import { AccessTokensService } from './access-tokens.service';
import type { PersonalAccessToken } from './personal-access-token.entity';

const DAY_MS = 24 * 60 * 60 * 1000;

class FakeTokens {
  rows = new Map<string, PersonalAccessToken>();
  touches = 0;
  async insert(row: NewTokenRow) {
    this.rows.set(row.id, {
      ...row,
      lastUsedAt: null,
      createdAt: new Date(now.getTime()),
    } as PersonalAccessToken);
  }
  async findWithUser(id: string) {
    const row = this.rows.get(id);
    return row
      ? { ...row, user: { id: row.userId, email: 'u@example.com', isSuperAdmin: false } as User }
      : null;
  }
  async touch(id: string, at: Date) {
    this.touches++;
    this.rows.get(id)!.lastUsedAt = at;
  }
  async delete(id: string) {
    this.rows.delete(id);
  }
  async deleteIdleOfUser() {}
}

let now = new Date('2026-01-01T00:00:00Z');
const clock = { now: () => new Date(now.getTime()) } as Clock;

describe('AccessTokensService', () => {
  let tokens: FakeTokens;
  let service: AccessTokensService;
  beforeEach(() => {
    now = new Date('2026-01-01T00:00:00Z');
    tokens = new FakeTokens();
    service = new AccessTokensService(tokens as unknown as AccessTokensRepository, clock, {
      TOKEN_IDLE_DAYS: 30,
    } as BackendConfig);
  });

  it('authenticates an issued token and records its use at most once a minute', async () => {
    const plain = await service.issue('user-1', 'phone');
    await expect(service.authenticate(plain)).resolves.toMatchObject({ user: { id: 'user-1' } });
    await expect(service.authenticate(plain)).resolves.not.toBeNull();
    expect(tokens.touches).toBe(1);
    now = new Date(now.getTime() + 61_000);
    await service.authenticate(plain);
    expect(tokens.touches).toBe(2);
  });

  it('refuses a token idle for longer than TOKEN_IDLE_DAYS, and forgets it', async () => {
    const plain = await service.issue('user-1', 'phone');
    now = new Date(now.getTime() + 30 * DAY_MS - 1000);
    await expect(service.authenticate(plain)).resolves.not.toBeNull();
    now = new Date(now.getTime() + 30 * DAY_MS + 1000);
    await expect(service.authenticate(plain)).resolves.toBeNull();
    expect(tokens.rows.size).toBe(0);
  });

  it('refuses unknown, forged and malformed tokens', async () => {
    const plain = await service.issue('user-1', 'phone');
    const [id] = plain.split('|');
    await expect(service.authenticate(newAccessToken().plainText)).resolves.toBeNull();
    await expect(
      service.authenticate(`${id}|${newAccessToken().plainText.split('|')[1]}`),
    ).resolves.toBeNull();
    await expect(service.authenticate('garbage')).resolves.toBeNull();
    await expect(service.authenticate(null)).resolves.toBeNull();
  });
});
