import { AccessTokensService } from '../src/access-tokens/access-tokens.service';
import { PersonalAccessToken } from '../src/access-tokens/personal-access-token.entity';
import { Transactions } from '../src/database/transactions';
import { User } from '../src/users/user.entity';
import { UsersService } from '../src/users/users.service';
import { createTestApp, TestApp } from './test-app';

const MISSING_USER = '00000000-0000-4000-8000-000000000009';

describe('Transactions.run (src/database/transactions.ts)', () => {
  let t: TestApp;
  let transactions: Transactions;
  let users: UsersService;
  let accessTokens: AccessTokensService;
  beforeAll(async () => {
    t = await createTestApp();
    transactions = t.app.get(Transactions);
    users = t.app.get(UsersService);
    accessTokens = t.app.get(AccessTokensService);
  });
  afterAll(() => t.close());

  /** The embedded database is one session (a pool of one connection): no second reader. */
  const severalSessions = () => (t.dataSource.options.extra as { max: number }).max > 1;

  // Read outside any transaction, on another connection of the pool.
  const tokensOf = (userId: string) => t.dataSource.getRepository(PersonalAccessToken).countBy({ userId });
  const hashOf = async (userId: string) =>
    (await t.dataSource.getRepository(User).findOneByOrFail({ id: userId })).passwordHash;

  it('commits the writes of several features together', async () => {
    const { user } = await t.signedInUser();
    await transactions.run(async () => {
      await users.setPasswordHash(user.id, 'new hash');
      await accessTokens.revokeAllOfUser(user.id);
    });
    expect(await hashOf(user.id)).toBe('new hash');
    expect(await tokensOf(user.id)).toBe(0);
  });

  it('rolls back the first write when the second fails in the database', async () => {
    const { user } = await t.signedInUser();
    const before = await hashOf(user.id);
    const failed = transactions.run(async () => {
      await users.setPasswordHash(user.id, 'never stored');
      await accessTokens.revokeAllOfUser(user.id);
      // A token of a user that does not exist: the foreign key refuses it.
      await accessTokens.issue(MISSING_USER, 'phone');
    });
    await expect(failed).rejects.toMatchObject({ driverError: { code: '23503' } });
    expect(await hashOf(user.id)).toBe(before);
    expect(await tokensOf(user.id)).toBe(1);
  });

  it('rolls back when the work throws after its writes, and rethrows the error', async () => {
    const { user } = await t.signedInUser();
    const before = await hashOf(user.id);
    const failed = transactions.run(async () => {
      await users.setPasswordHash(user.id, 'never stored');
      throw new Error('a rule failed');
    });
    await expect(failed).rejects.toThrow('a rule failed');
    expect(await hashOf(user.id)).toBe(before);
  });

  it('keeps the writes invisible outside until the commit, and visible inside at once', async () => {
    const { user } = await t.signedInUser();
    const before = await hashOf(user.id);
    await transactions.run(async () => {
      await users.setPasswordHash(user.id, 'pending hash');
      expect((await users.findByEmail(user.email))?.passwordHash).toBe('pending hash');
      // Another session does not see it yet (the embedded database has no other session).
      if (severalSessions()) expect(await hashOf(user.id)).toBe(before);
    });
    expect(await hashOf(user.id)).toBe('pending hash');
  });

  it('joins the outer transaction from a nested run: the outer failure undoes the inner writes', async () => {
    const { user } = await t.signedInUser();
    const failed = transactions.run(async () => {
      await transactions.run(() => accessTokens.revokeAllOfUser(user.id));
      throw new Error('outer failure');
    });
    await expect(failed).rejects.toThrow('outer failure');
    expect(await tokensOf(user.id)).toBe(1);
  });

  it('leaves concurrent work outside the transaction alone', async () => {
    const { user: inside } = await t.signedInUser();
    const { user: outside } = await t.signedInUser();
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = transactions.run(async () => {
      await accessTokens.revokeAllOfUser(inside.id);
      wrote();
      await held;
      throw new Error('rolled back');
    });
    await written;
    // Started while the transaction is open, from another async context: not part of it (on a
    // one-connection pool it waits for the transaction to end).
    const outsideWork = accessTokens.revokeAllOfUser(outside.id);
    release();
    await expect(running).rejects.toThrow('rolled back');
    await outsideWork;
    expect(await tokensOf(inside.id)).toBe(1);
    expect(await tokensOf(outside.id)).toBe(0);
  });
});
