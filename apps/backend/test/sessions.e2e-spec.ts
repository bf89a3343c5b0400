import { createHash } from 'node:crypto';
import { PersonalAccessToken } from '../src/access-tokens/personal-access-token.entity';
import { ThrottleCounter } from '../src/throttling/throttle-counter.entity';
import { TEST_PASSWORD } from './factories';
import { createTestApp, TestApp } from './test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('sessions: POST /login, POST /logout, bearer tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { THROTTLE_LOGIN_LIMIT: '3' } });
  });
  afterAll(() => t.close());

  const tokens = () => t.dataSource.getRepository(PersonalAccessToken);
  const login = (body: Record<string, unknown>) => t.http.post('/api/login').send(body);

  describe('POST /login', () => {
    it('issues a device token and returns the user; only a hash of the secret is stored', async () => {
      const user = await t.makeUser({ email: 'Ada.Lovelace@Example.com' });
      const organization = await t.makeOrganization({ name: 'Alpine Adventures' });
      await t.addMember(organization, user, 'manager');

      const res = await login({
        email: 'ada.lovelace@example.COM',
        password: TEST_PASSWORD,
        device_name: 'Firefox',
      }).expect(200);

      expect(res.body.token).toMatch(/^[0-9a-f-]{36}\|[A-Za-z0-9]{40,}$/);
      expect(res.body.user).toEqual({
        id: user.id,
        email: 'Ada.Lovelace@Example.com',
        pending_email: null,
        first_name: 'Test',
        last_name: 'User',
        preferred_language: 'en-gb',
        is_super_admin: false,
        profile_picture_id: null,
        profile_picture: null,
        memberships: [
          {
            organization: {
              id: organization.id,
              name: 'Alpine Adventures',
              type: 'reseller',
              status: 'approved',
            },
            role: 'manager',
          },
        ],
      });
      const [id, secret] = (res.body.token as string).split('|');
      const row = await tokens().findOneByOrFail({ id });
      expect(row).toMatchObject({ userId: user.id, deviceName: 'Firefox' });
      expect(row.tokenHash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(secret);

      await t.http.get('/api/user').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    });

    it('answers wrong credentials with 422 on email, the same for an unknown address', async () => {
      const user = await t.makeUser();
      const wrongPassword = await login({
        email: user.email,
        password: 'not the password',
        device_name: 'x',
      }).expect(422);
      const unknown = await login({
        email: 'nobody@example.com',
        password: TEST_PASSWORD,
        device_name: 'x',
      }).expect(422);
      expect(wrongPassword.body).toEqual({
        message: 'These credentials do not match our records.',
        errors: { email: ['These credentials do not match our records.'] },
      });
      expect(unknown.body).toEqual(wrongPassword.body);
    });

    it.each([
      [
        'a missing email',
        { password: TEST_PASSWORD, device_name: 'x' },
        'email',
        'The email field is required.',
      ],
      [
        'an invalid email',
        { email: 'not-an-email', password: TEST_PASSWORD, device_name: 'x' },
        'email',
        'The email field must be a valid email address.',
      ],
      [
        'a non-string email',
        { email: 42, password: TEST_PASSWORD, device_name: 'x' },
        'email',
        'The email field must be a string.',
      ],
      [
        'a missing password',
        { email: 'b@example.com', device_name: 'x' },
        'password',
        'The password field is required.',
      ],
      [
        'an empty password',
        { email: 'c@example.com', password: '', device_name: 'x' },
        'password',
        'The password field is required.',
      ],
      [
        'a missing device name',
        { email: 'd@example.com', password: TEST_PASSWORD },
        'device_name',
        'The device name field is required.',
      ],
      [
        'a device name over 255 characters',
        { email: 'e@example.com', password: TEST_PASSWORD, device_name: 'd'.repeat(256) },
        'device_name',
        'The device name field must not be greater than 255 characters.',
      ],
    ])('refuses %s with 422 on that field', async (_case, body, field, message) => {
      const res = await login(body).expect(422);
      expect(res.body.errors).toEqual({ [field]: [message] });
    });

    it('accepts a device name of exactly 255 characters', async () => {
      const user = await t.makeUser();
      await login({ email: user.email, password: TEST_PASSWORD, device_name: 'd'.repeat(255) }).expect(200);
    });

    // Failures only count: the one over THROTTLE_LOGIN_LIMIT is refused (more in throttling.e2e-spec.ts).
    it('answers 429 with Retry-After after repeated failures for one email and address, and counts in PostgreSQL', async () => {
      const user = await t.makeUser();
      for (let attempt = 0; attempt < 3; attempt++) {
        await login({ email: user.email, password: 'wrong password!', device_name: 'x' }).expect(422);
      }
      await login({ email: user.email, password: 'wrong password!', device_name: 'x' }).expect(429);
      const blocked = await login({
        email: user.email.toUpperCase(),
        password: TEST_PASSWORD,
        device_name: 'x',
      }).expect(429);
      expect(blocked.body).toEqual({ message: 'Too many requests.', error: 'too_many_requests' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(250);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(300);
      expect(await t.dataSource.getRepository(ThrottleCounter).count()).toBeGreaterThan(0);

      // Another email from the same address is not affected.
      const other = await t.makeUser();
      await login({ email: other.email, password: TEST_PASSWORD, device_name: 'x' }).expect(200);
    });

    it('forgives earlier failures after a successful login', async () => {
      const user = await t.makeUser();
      const fail = () =>
        login({ email: user.email, password: 'wrong password!', device_name: 'x' }).expect(422);
      await fail();
      await fail();
      await login({ email: user.email, password: TEST_PASSWORD, device_name: 'x' }).expect(200);
      await fail();
      await fail();
      await fail();
    });
  });

  describe('bearer tokens', () => {
    it('refuses a missing, malformed, unknown or wrong token with 401 unauthenticated', async () => {
      const { token } = await t.signedInUser();
      const [id] = token.split('|');
      const cases: (string | undefined)[] = [
        undefined,
        'Bearer',
        'Bearer not-a-token',
        `Basic ${Buffer.from('a:b').toString('base64')}`,
        `Bearer 00000000-0000-4000-8000-000000000000|${'a'.repeat(48)}`,
        `Bearer ${id}|${'a'.repeat(48)}`,
        `Bearer ${id}|short`,
      ];
      for (const header of cases) {
        const req = t.http.get('/api/user');
        if (header) req.set('Authorization', header);
        const res = await req.expect(401);
        expect(res.body).toEqual({ message: 'Unauthenticated.', error: 'unauthenticated' });
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    });

    it('expires a token unused for longer than the idle period', async () => {
      const { token, agent } = await t.signedInUser();
      const [id] = token.split('|');
      await tokens().update({ id }, { lastUsedAt: new Date(Date.now() - 31 * DAY_MS) });
      await agent.get('/api/user').expect(401);
      expect(await tokens().countBy({ id })).toBe(0);
    });

    it('keeps a token used within the idle period', async () => {
      const { token, agent } = await t.signedInUser();
      const [id] = token.split('|');
      await tokens().update({ id }, { lastUsedAt: new Date(Date.now() - 29 * DAY_MS) });
      await agent.get('/api/user').expect(200);
    });

    it('records last_used_at, but not again within a minute', async () => {
      const { token, agent } = await t.signedInUser();
      const [id] = token.split('|');
      expect((await tokens().findOneByOrFail({ id })).lastUsedAt).toBeNull();
      await agent.get('/api/user').expect(200);
      const first = (await tokens().findOneByOrFail({ id })).lastUsedAt;
      expect(first).toBeInstanceOf(Date);
      await agent.get('/api/user').expect(200);
      expect((await tokens().findOneByOrFail({ id })).lastUsedAt).toEqual(first);

      const twoMinutesAgo = new Date(Date.now() - 120_000);
      await tokens().update({ id }, { lastUsedAt: twoMinutesAgo });
      await agent.get('/api/user').expect(200);
      expect((await tokens().findOneByOrFail({ id })).lastUsedAt!.getTime()).toBeGreaterThan(
        twoMinutesAgo.getTime(),
      );
    });
  });

  describe('POST /logout', () => {
    it('revokes the token in use (204), which then fails with 401; other devices stay signed in', async () => {
      const user = await t.makeUser();
      const phone = await t.signIn(user);
      const laptop = await t.signIn(user);

      const res = await phone.agent.post('/api/logout').expect(204);
      expect(res.text).toBe('');
      await phone.agent.get('/api/user').expect(401);
      await phone.agent.post('/api/logout').expect(401);
      await laptop.agent.get('/api/user').expect(200);
    });

    it('needs no X-Viewing-As but a token', async () => {
      await t.http.post('/api/logout').expect(401);
    });
  });
});
