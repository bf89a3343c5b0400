import sharp from 'sharp';
import { ThrottleCounter } from '../src/throttling/throttle-counter.entity';
import { throttleKey } from '../src/throttling/throttle-policies';
import { type SignedIn, TEST_PASSWORD } from './factories';
import { createTestApp, TestApp } from './test-app';

const NEW_PASSWORD = 'a brand new passphrase';

/**
 * The throttles keep apart what one client address does from what another does. The address is
 * varied with `X-Forwarded-For` (TRUST_PROXY); each test uses addresses of its own.
 */
describe('throttling: login failures, password requests, per email+address and per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        TRUST_PROXY: 'true',
        THROTTLE_LOGIN_LIMIT: '3',
        THROTTLE_LOGIN_ADDRESS_LIMIT: '6',
        THROTTLE_PASSWORD_LIMIT: '2',
        THROTTLE_PASSWORD_ADDRESS_LIMIT: '5',
        THROTTLE_CLAIM_LIMIT: '10',
        THROTTLE_CLAIM_ADDRESS_LIMIT: '14',
        THROTTLE_IMAGES_LIMIT: '3',
        THROTTLE_IMAGES_ADDRESS_LIMIT: '5',
      },
    });
  });
  afterAll(() => t.close());

  let lastAddress = 0;
  /** A client address no other test uses (TEST-NET-3). */
  const newAddress = () => `203.0.113.${++lastAddress}`;

  const login = (from: string, email: string, password: string) =>
    t.http.post('/api/login').set('X-Forwarded-For', from).send({ email, password, device_name: 'x' });
  const forgot = (from: string, email: string) =>
    t.http.post('/api/forgot-password').set('X-Forwarded-For', from).send({ email });
  const reset = (from: string, body: Record<string, unknown>) =>
    t.http.post('/api/reset-password').set('X-Forwarded-For', from).send(body);

  const counters = () => t.dataSource.getRepository(ThrottleCounter);
  const expectTooManyRequests = (
    res: { body: unknown; headers: Record<string, string> },
    windowSeconds: number,
  ) => {
    expect(res.body).toEqual({ message: 'Too many requests.', error: 'too_many_requests' });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(windowSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  };

  describe('POST /login', () => {
    it('lets 50 concurrent correct logins from one address through, for one email or many, and counts none', async () => {
      const from = newAddress();
      const user = await t.makeUser();
      const colleagues = await Promise.all(Array.from({ length: 10 }, () => t.makeUser()));

      const sameEmail = await Promise.all(
        Array.from({ length: 50 }, () => login(from, user.email, TEST_PASSWORD)),
      );
      expect(sameEmail.map((res) => res.status)).toEqual(Array(50).fill(200));

      const manyEmails = await Promise.all(
        Array.from({ length: 50 }, (_, i) => login(from, colleagues[i % 10].email, TEST_PASSWORD)),
      );
      expect(manyEmails.map((res) => res.status)).toEqual(Array(50).fill(200));

      expect(
        await counters().countBy([
          { key: throttleKey('login/address', from) },
          { key: throttleKey('login', `${user.email.toLowerCase()}|${from}`) },
        ]),
      ).toBe(0);
    });

    it('lets 50 concurrent correct logins through after failures below the limit, and clears those', async () => {
      const from = newAddress();
      const user = await t.makeUser();
      await login(from, user.email, 'wrong password!').expect(422);
      await login(from, user.email, 'wrong password!').expect(422);

      const results = await Promise.all(
        Array.from({ length: 50 }, () => login(from, user.email, TEST_PASSWORD)),
      );
      expect(results.map((res) => res.status)).toEqual(Array(50).fill(200));
      expect(
        await counters().countBy({ key: throttleKey('login', `${user.email.toLowerCase()}|${from}`) }),
      ).toBe(0);

      // Cleared: the limit (3) of failures is available again.
      for (let attempt = 0; attempt < 3; attempt++) {
        await login(from, user.email, 'wrong password!').expect(422);
      }
    });

    it('blocks one email from one address after repeated failures, even the right password, but not from another address', async () => {
      const from = newAddress();
      const elsewhere = newAddress();
      const user = await t.makeUser({ email: 'Blocked.Pair@example.com' });
      for (let attempt = 0; attempt < 3; attempt++) {
        await login(from, user.email, 'wrong password!').expect(422);
      }
      expectTooManyRequests(await login(from, user.email, 'wrong password!').expect(429), 300);

      expectTooManyRequests(await login(from, 'BLOCKED.PAIR@example.com', TEST_PASSWORD).expect(429), 300);
      // Refused before the body or the password is looked at.
      await t.http.post('/api/login').set('X-Forwarded-For', from).send({ email: user.email }).expect(429);

      await login(elsewhere, user.email, TEST_PASSWORD).expect(200);
      // Another email from the blocked pair's address is not affected.
      const other = await t.makeUser();
      await login(from, other.email, TEST_PASSWORD).expect(200);
    });

    it('counts every failure of a concurrent burst: exactly the limit get a 422, the rest 429', async () => {
      const from = newAddress();
      const user = await t.makeUser();
      const results = await Promise.all(
        Array.from({ length: 12 }, () => login(from, user.email, 'wrong password!')),
      );
      const statuses = results.map((res) => res.status).sort();
      expect(statuses).toEqual([...Array(3).fill(422), ...Array(9).fill(429)]);
      await login(from, user.email, TEST_PASSWORD).expect(429);
    });

    it('blocks an address that fails for many emails, whatever the email, until its window ends', async () => {
      const from = newAddress();
      const elsewhere = newAddress();
      const user = await t.makeUser();
      for (let attempt = 0; attempt < 6; attempt++) {
        await login(from, `sprayed-${attempt}@example.com`, 'wrong password!').expect(422);
      }
      expectTooManyRequests(await login(from, 'sprayed-6@example.com', 'wrong password!').expect(429), 300);

      // Every login from that address is refused now, a correct one included.
      expectTooManyRequests(await login(from, user.email, TEST_PASSWORD).expect(429), 300);
      await login(elsewhere, user.email, TEST_PASSWORD).expect(200);
    });
  });

  describe('POST /forgot-password', () => {
    it('does not let requests from one address block a reset asked from another', async () => {
      const a = newAddress();
      const b = newAddress();
      const user = await t.makeUser();
      await forgot(a, user.email).expect(204);
      await forgot(a, user.email).expect(204);
      expectTooManyRequests(await forgot(a, user.email.toUpperCase()).expect(429), 3600);
      await t.deliverMail();
      expect(t.mail.to(user.email)).toHaveLength(2);

      await forgot(b, user.email).expect(204);
      await t.deliverMail();
      expect(t.mail.to(user.email)).toHaveLength(3);
    });

    it('blocks an address that asks for many emails', async () => {
      const from = newAddress();
      const elsewhere = newAddress();
      for (let call = 0; call < 5; call++) await forgot(from, `asked-${call}@example.com`).expect(204);
      expectTooManyRequests(await forgot(from, 'asked-5@example.com').expect(429), 3600);

      const user = await t.makeUser();
      await forgot(from, user.email).expect(429);
      await forgot(elsewhere, user.email).expect(204);
      await t.deliverMail();
      expect(t.mail.to(user.email)).toHaveLength(1);
    });
  });

  describe('POST /reset-password', () => {
    it('does not let attempts from one address block a reset from another', async () => {
      const a = newAddress();
      const b = newAddress();
      const user = await t.makeUser();
      const guess = { email: user.email, token: 'x'.repeat(48), password: NEW_PASSWORD };
      await reset(a, guess).expect(422);
      await reset(a, guess).expect(422);
      expectTooManyRequests(await reset(a, guess).expect(429), 3600);

      await forgot(b, user.email).expect(204);
      await t.deliverMail();
      const token = t.mail.lastTo(user.email)!.data.token;
      expectTooManyRequests(await reset(a, { ...guess, token }).expect(429), 3600);
      await reset(b, { email: user.email, token, password: NEW_PASSWORD }).expect(204);
      await login(b, user.email, NEW_PASSWORD).expect(200);
    });

    it('blocks an address that tries many emails, counting reset attempts apart from reset requests', async () => {
      const from = newAddress();
      const elsewhere = newAddress();
      for (let call = 0; call < 5; call++) {
        await reset(from, {
          email: `tried-${call}@example.com`,
          token: 'x'.repeat(48),
          password: NEW_PASSWORD,
        }).expect(422);
      }
      const blocked = await reset(from, {
        email: 'tried-5@example.com',
        token: 'x'.repeat(48),
        password: NEW_PASSWORD,
      }).expect(429);
      expectTooManyRequests(blocked, 3600);

      const user = await t.makeUser();
      await forgot(from, user.email).expect(204);
      await t.deliverMail();
      const token = t.mail.lastTo(user.email)!.data.token;
      await reset(from, { email: user.email, token, password: NEW_PASSWORD }).expect(429);
      await reset(elsewhere, { email: user.email, token, password: NEW_PASSWORD }).expect(204);
    });
  });

  describe('POST /activation-codes/claim', () => {
    const claim = (agent: SignedIn['agent'], from: string, code: string) =>
      agent
        .post('/api/activation-codes/claim')
        .set('X-Forwarded-For', from)
        .set('X-Viewing-As', 'traveller')
        .send({ full_code: code });

    /** `count` fresh codes of a new organization, generated by a super-admin. */
    const freshCodes = async (count: number): Promise<string[]> => {
      const admin = await t.signedInSuperAdmin();
      const organization = await t.makeOrganization();
      await admin.agent
        .post('/api/activation-codes/batches')
        .set('X-Viewing-As', 'super-admin')
        .send({ organisation_id: organization.id, count })
        .expect(201);
      const listed = await admin.agent
        .get(`/api/activation-codes?organisation_id=${organization.id}&per_page=100`)
        .set('X-Viewing-As', 'super-admin')
        .expect(200);
      return (listed.body.data as { full_code: string }[]).map((code) => code.full_code);
    };

    it("counts nothing for successful claims, nor for a repeated claim of one's own code", async () => {
      const assistant = await t.signedInUser();
      const from = newAddress();
      const codes = await freshCodes(12);
      for (const code of codes) await claim(assistant.agent, from, code).expect(200);
      for (const code of codes.slice(0, 3)) await claim(assistant.agent, from, code).expect(200);
      expect(
        await counters().countBy([
          { key: throttleKey('claim/address', from) },
          { key: throttleKey('claim', assistant.user.id) },
        ]),
      ).toBe(0);
    });

    it("counts refused claims (unknown, malformed, someone else's) per user, wherever they ask from", async () => {
      const [held] = await freshCodes(1);
      await claim((await t.signedInUser()).agent, newAddress(), held).expect(200);
      const guesser = await t.signedInUser();
      const refusals = [
        ...Array.from({ length: 8 }, (_, call) => `AAAA-BBBB-CCC${call + 2}`),
        'X'.repeat(65), // malformed: refused by the body's validation
        held, // someone else's
      ];
      for (const code of refusals) await claim(guesser.agent, newAddress(), code).expect(422);
      // The eleventh refusal passes the limit: 429 instead of 422, then every claim is refused.
      expectTooManyRequests(await claim(guesser.agent, newAddress(), 'AAAA-BBBB-CCCD').expect(429), 3600);
      const [real] = await freshCodes(1);
      expectTooManyRequests(await claim(guesser.agent, newAddress(), real).expect(429), 3600);
    });

    it('counts refused claims per address whatever the user, and a blocked address refuses a real code too', async () => {
      const shared = newAddress();
      const [real] = await freshCodes(1);
      // The address budget (14) stops users rotating from one address.
      for (let call = 0; call < 14; call++) {
        await claim((await t.signedInUser()).agent, shared, 'AAAA-BBBB-CCCF').expect(422);
      }
      expectTooManyRequests(
        await claim((await t.signedInUser()).agent, shared, 'AAAA-BBBB-CCCG').expect(429),
        3600,
      );
      // The blocked address refuses a real code too; another address takes it.
      await claim((await t.signedInUser()).agent, shared, real).expect(429);
      await claim((await t.signedInUser()).agent, newAddress(), real).expect(200);
    });
  });

  describe('POST /images', () => {
    const upload = (agent: SignedIn['agent'], from: string, file = Buffer.from('not an image')) =>
      agent
        .post('/api/images')
        .set('X-Forwarded-For', from)
        .set('X-Viewing-As', 'traveller')
        .attach('image', file, 'photo.png');

    it('counts every upload per user, wherever it comes from, then refuses even a real image', async () => {
      const uploader = await t.signedInUser();
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      await upload(uploader.agent, newAddress(), png).expect(201);
      await upload(uploader.agent, newAddress()).expect(422);
      await upload(uploader.agent, newAddress()).expect(422);
      expectTooManyRequests(await upload(uploader.agent, newAddress()).expect(429), 3600);
      expectTooManyRequests(await upload(uploader.agent, newAddress(), png).expect(429), 3600);
      // Another user is not affected.
      await upload((await t.signedInUser()).agent, newAddress(), png).expect(201);
    });

    it('counts uploads per address whatever the user, and another address is not affected', async () => {
      const shared = newAddress();
      for (let call = 0; call < 5; call++) {
        await upload((await t.signedInUser()).agent, shared).expect(422);
      }
      const next = await t.signedInUser();
      expectTooManyRequests(await upload(next.agent, shared).expect(429), 3600);
      await upload(next.agent, newAddress()).expect(422);
    });
  });
});
