import { PasswordResetToken } from '../src/password-reset/password-reset-token.entity';
import { TEST_PASSWORD } from './factories';
import { createTestApp, TestApp, UNTHROTTLED_ENV } from './test-app';

const NEW_PASSWORD = 'a brand new passphrase';

describe('POST /forgot-password, POST /reset-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      // Every call here comes from one address; the password limit per email is tested.
      env: {
        ...UNTHROTTLED_ENV,
        THROTTLE_PASSWORD_LIMIT: '4',
        CLIENT_APP_URL: 'https://office.example.test',
      },
    });
  });
  afterAll(() => t.close());

  const forgot = (email: string) => t.http.post('/api/forgot-password').send({ email });
  /** Asks for a reset link and delivers the outbox, as its worker would. */
  const forgotAndDeliver = async (email: string) => {
    await forgot(email).expect(204);
    await t.deliverMail();
  };
  const reset = (body: Record<string, unknown>) => t.http.post('/api/reset-password').send(body);
  const tokenMailedTo = (email: string) => {
    const message = t.mail.lastTo(email);
    if (!message) throw new Error(`no mail to ${email}`);
    return message.data.token;
  };
  const expectInvalidToken = (res: { body: unknown }) =>
    expect(res.body).toEqual({
      message: 'This password reset token is invalid or has expired.',
      errors: { token: ['This password reset token is invalid or has expired.'] },
      error: 'invalid_reset_token',
    });

  it('answers 204 for an unknown address and sends nothing', async () => {
    const res = await forgot('nobody-here@example.com').expect(204);
    await t.deliverMail();
    expect(res.text).toBe('');
    expect(t.mail.to('nobody-here@example.com')).toEqual([]);
  });

  it('refuses an invalid email with 422', async () => {
    const res = await t.http.post('/api/forgot-password').send({ email: 'nope' }).expect(422);
    expect(Object.keys(res.body.errors)).toEqual(['email']);
  });

  it('resets the password with the mailed token, signs every device out, and the token works once', async () => {
    const { user, agent } = await t.signedInUser({ email: 'Reset.Me@example.com' });
    const other = await t.signIn(user);
    await forgotAndDeliver('reset.me@EXAMPLE.com');

    const message = t.mail.lastTo(user.email)!;
    expect(message).toMatchObject({ template: 'password-reset', to: 'Reset.Me@example.com' });
    const token = message.data.token;
    expect(token).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(message.data.link).toBe(
      `https://office.example.test/reset-password?token=${token}&email=${encodeURIComponent(user.email)}`,
    );
    const stored = await t.dataSource.getRepository(PasswordResetToken).findOneByOrFail({ userId: user.id });
    expect(stored.tokenHash).not.toContain(token);

    await reset({ email: user.email, token, password: NEW_PASSWORD }).expect(204);

    await agent.get('/api/user').expect(401);
    await other.agent.get('/api/user').expect(401);
    await t.http
      .post('/api/login')
      .send({ email: user.email, password: TEST_PASSWORD, device_name: 'x' })
      .expect(422);
    await t.http
      .post('/api/login')
      .send({ email: user.email, password: NEW_PASSWORD, device_name: 'x' })
      .expect(200);

    // Used: refused from now on.
    expectInvalidToken(
      await reset({ email: user.email, token, password: 'yet another passphrase' }).expect(422),
    );
  });

  it('refuses a bad token, or a good token with another email, with invalid_reset_token', async () => {
    const user = await t.makeUser();
    const someoneElse = await t.makeUser();
    await forgotAndDeliver(user.email);
    const token = tokenMailedTo(user.email);
    expectInvalidToken(
      await reset({ email: user.email, token: 'x'.repeat(48), password: NEW_PASSWORD }).expect(422),
    );
    expectInvalidToken(await reset({ email: someoneElse.email, token, password: NEW_PASSWORD }).expect(422));
    expectInvalidToken(
      await reset({ email: 'nobody@example.com', token, password: NEW_PASSWORD }).expect(422),
    );
    await reset({ email: user.email, token, password: NEW_PASSWORD }).expect(204);
  });

  it('refuses an expired token', async () => {
    const user = await t.makeUser();
    await forgotAndDeliver(user.email);
    const token = tokenMailedTo(user.email);
    await t.dataSource
      .getRepository(PasswordResetToken)
      .update({ userId: user.id }, { expiresAt: new Date(Date.now() - 1000) });
    expectInvalidToken(await reset({ email: user.email, token, password: NEW_PASSWORD }).expect(422));
  });

  it('expires tokens after PASSWORD_RESET_TTL_MINUTES (60 by default)', async () => {
    const user = await t.makeUser();
    const before = Date.now();
    await forgotAndDeliver(user.email);
    const stored = await t.dataSource.getRepository(PasswordResetToken).findOneByOrFail({ userId: user.id });
    expect(stored.expiresAt.getTime() - before).toBeGreaterThanOrEqual(59 * 60_000);
    expect(stored.expiresAt.getTime() - before).toBeLessThanOrEqual(61 * 60_000);
  });

  it('keeps only the latest link working', async () => {
    const user = await t.makeUser();
    await forgotAndDeliver(user.email);
    const first = tokenMailedTo(user.email);
    await forgotAndDeliver(user.email);
    const second = tokenMailedTo(user.email);
    expect(second).not.toBe(first);
    expectInvalidToken(await reset({ email: user.email, token: first, password: NEW_PASSWORD }).expect(422));
    await reset({ email: user.email, token: second, password: NEW_PASSWORD }).expect(204);
  });

  it('validates the new password (12 to 128 characters) before looking at the token', async () => {
    const short = await reset({ email: 'a@example.com', token: 'whatever', password: 'too short' }).expect(
      422,
    );
    expect(short.body.errors).toEqual({ password: ['The password field must be at least 12 characters.'] });
    expect(short.body).not.toHaveProperty('error');
    const long = await reset({ email: 'b@example.com', token: 'whatever', password: 'p'.repeat(129) }).expect(
      422,
    );
    expect(long.body.errors).toEqual({
      password: ['The password field must not be greater than 128 characters.'],
    });
    const missing = await reset({}).expect(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['email', 'password', 'token']);
  });

  it('throttles per email (and address): 429 with Retry-After', async () => {
    const email = 'throttled@example.com';
    for (let call = 0; call < 4; call++) await forgot(email).expect(204);
    const res = await forgot(email.toUpperCase()).expect(429);
    expect(res.body).toEqual({ message: 'Too many requests.', error: 'too_many_requests' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
    await forgotAndDeliver('someone-else@example.com');

    for (let call = 0; call < 4; call++)
      await reset({ email, token: 'bad', password: NEW_PASSWORD }).expect(422);
    const blocked = await reset({ email, token: 'bad', password: NEW_PASSWORD }).expect(429);
    expect(blocked.headers['retry-after']).toEqual(expect.any(String));
  });
});
