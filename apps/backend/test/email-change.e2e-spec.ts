import { Clock } from '../src/common/clock';
import { type SignedIn, TEST_PASSWORD } from './factories';
import { createTestApp, TestApp } from './test-app';

let sequence = 0;
const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${sequence++}@example.com`;

/** A full replacement of the user, as `PUT /user` takes it. */
const replacement = (signedIn: SignedIn, overrides: Record<string, unknown> = {}) => ({
  first_name: signedIn.user.firstName,
  last_name: signedIn.user.lastName,
  email: signedIn.user.email,
  preferred_language: signedIn.user.preferredLanguage,
  profile_picture_id: null,
  ...overrides,
});

const INVALID_TOKEN = {
  message: 'This email confirmation link is invalid or has expired.',
  errors: { token: ['This email confirmation link is invalid or has expired.'] },
  error: 'invalid_email_change_token',
};

describe('email changes are confirmed (issue 47)', () => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        CLIENT_APP_URL: 'https://office.example.test',
        THROTTLE_EMAIL_CHANGE_LIMIT: '3',
        // Every call here comes from one address: keep its own budget out of the way.
        THROTTLE_EMAIL_CHANGE_ADDRESS_LIMIT: '1000',
      },
    });
    admin = await t.signedInSuperAdmin();
  });
  afterAll(() => t.close());

  /** Asks to change the signed-in user's email, with the right password unless told otherwise. */
  const requestChange = (signedIn: SignedIn, email: string, overrides: Record<string, unknown> = {}) =>
    signedIn.agent
      .put('/api/user')
      .send(replacement(signedIn, { email, current_password: TEST_PASSWORD, ...overrides }));
  const mailTo = (email: string, template: string) => {
    const message = t.mail
      .to(email)
      .filter((m) => m.template === template)
      .at(-1);
    if (!message) throw new Error(`no ${template} mail to ${email}`);
    return message;
  };
  const confirm = (token: string) => t.http.post('/api/user/email-confirmation').send({ token });
  const report = (token: string) => t.http.post('/api/user/email-change-report').send({ token });

  it('the attacker chain: a victim address set on an own account does not make the attacker its manager', async () => {
    const attacker = await t.signedInUser();
    const victim = uniqueEmail('new.partner');
    await requestChange(attacker, victim).expect(200);

    const res = await admin
      .as('super-admin')
      .post('/organizations')
      .send({
        name: `Partner ${sequence++}`,
        type: 'reseller',
        manager_email: victim,
        manager_first_name: 'Real',
        manager_last_name: 'Partner',
        preferred_language: 'en-gb',
      })
      .expect(201);
    await t.deliverMail();

    const [manager] = res.body.members;
    expect(manager).toMatchObject({ email: victim, role: 'manager' });
    expect(manager.id).not.toBe(attacker.user.id);
    const me = await attacker.agent.get('/api/user').expect(200);
    expect(me.body.memberships).toEqual([]);
    expect(t.mail.to(victim).map((m) => m.template)).toEqual(expect.arrayContaining(['invitation']));
    expect(t.mail.to(victim).map((m) => m.template)).not.toContain('manager-added');
  });

  it('a stolen token cannot change the email without the current password (422 on current_password)', async () => {
    const signedIn = await t.signedInUser();
    const target = uniqueEmail('thief');
    const missing = await requestChange(signedIn, target, { current_password: undefined }).expect(422);
    expect(missing.body.errors).toEqual({
      current_password: ['The current password field is required to change the email.'],
    });
    const wrong = await requestChange(signedIn, target, { current_password: 'not the password!' }).expect(
      422,
    );
    expect(wrong.body.errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const me = await signedIn.agent.get('/api/user').expect(200);
    expect(me.body).toMatchObject({ email: signedIn.user.email, pending_email: null });
    await t.deliverMail();
    expect(t.mail.to(target)).toEqual([]);
  });

  it('keeps the old email until the new address confirms, then revokes every other token', async () => {
    const signedIn = await t.signedInUser();
    const elsewhere = await t.signIn(signedIn.user);
    const target = `New-${uniqueEmail('confirmed')}`;

    const res = await requestChange(signedIn, target, { first_name: 'Renamed' }).expect(200);
    expect(res.body).toMatchObject({
      email: signedIn.user.email,
      pending_email: target,
      first_name: 'Renamed',
    });
    const me = await signedIn.agent.get('/api/user').expect(200);
    expect(me.body).toMatchObject({ email: signedIn.user.email, pending_email: target });

    await t.deliverMail();
    const confirmation = mailTo(target, 'email-change-confirmation');
    expect(confirmation.data.link).toBe(
      `https://office.example.test/confirm-email?token=${confirmation.data.token}`,
    );
    expect(confirmation.text).not.toContain(TEST_PASSWORD);
    const notice = mailTo(signedIn.user.email, 'email-change-notice');
    expect(notice.text).toContain(target);
    expect(notice.data.link).toBe(
      `https://office.example.test/report-email-change?token=${notice.data.token}`,
    );

    await confirm(confirmation.data.token).expect(204);
    const after = await signedIn.agent.get('/api/user').expect(200);
    expect(after.body).toMatchObject({ email: target, pending_email: null, first_name: 'Renamed' });
    await elsewhere.agent.get('/api/user').expect(401);
    await t.http
      .post('/api/login')
      .send({ email: target.toLowerCase(), password: TEST_PASSWORD, device_name: 'after the change' })
      .expect(200);

    // The token works once.
    expect((await confirm(confirmation.data.token).expect(422)).body).toEqual(INVALID_TOKEN);
  });

  it('refuses a bad or an expired confirmation token with 422 invalid_email_change_token', async () => {
    expect((await confirm('not-a-token').expect(422)).body).toEqual(INVALID_TOKEN);
    expect((await confirm('').expect(422)).body.errors.token).toHaveLength(1);

    const signedIn = await t.signedInUser();
    const target = uniqueEmail('late');
    await requestChange(signedIn, target).expect(200);
    await t.deliverMail();
    const { token } = mailTo(target, 'email-change-confirmation').data;
    const clock = t.app.get(Clock);
    const later = new Date(Date.now() + 25 * 3_600_000);
    const spy = jest.spyOn(clock, 'now').mockReturnValue(later);
    try {
      expect((await confirm(token).expect(422)).body).toEqual(INVALID_TOKEN);
      expect((await signedIn.agent.get('/api/user').expect(200)).body.pending_email).toBeNull();
    } finally {
      spy.mockRestore();
    }
    expect((await signedIn.agent.get('/api/user').expect(200)).body.email).toBe(signedIn.user.email);
  });

  it('a new change replaces the pending one: only the latest link confirms', async () => {
    const signedIn = await t.signedInUser();
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await requestChange(signedIn, first).expect(200);
    const res = await requestChange(signedIn, second).expect(200);
    expect(res.body.pending_email).toBe(second);
    await t.deliverMail();
    expect((await confirm(mailTo(first, 'email-change-confirmation').data.token).expect(422)).body).toEqual(
      INVALID_TOKEN,
    );
    await confirm(mailTo(second, 'email-change-confirmation').data.token).expect(204);
  });

  it('the report link of the notice cancels the pending change and signs the account out everywhere', async () => {
    const signedIn = await t.signedInUser();
    const target = uniqueEmail('intruder');
    await requestChange(signedIn, target).expect(200);
    await t.deliverMail();
    const notice = mailTo(signedIn.user.email, 'email-change-notice');

    await report(notice.data.token).expect(204);
    await signedIn.agent.get('/api/user').expect(401);
    expect((await confirm(mailTo(target, 'email-change-confirmation').data.token).expect(422)).body).toEqual(
      INVALID_TOKEN,
    );
    const again = await t.signIn(signedIn.user);
    expect((await again.agent.get('/api/user').expect(200)).body).toMatchObject({
      email: signedIn.user.email,
      pending_email: null,
    });
    expect((await report('not-a-token').expect(422)).body.error).toBe('invalid_email_change_token');
  });

  it('the report link undoes a change that was already confirmed', async () => {
    const signedIn = await t.signedInUser();
    const target = uniqueEmail('quick');
    await requestChange(signedIn, target).expect(200);
    await t.deliverMail();
    await confirm(mailTo(target, 'email-change-confirmation').data.token).expect(204);
    await report(mailTo(signedIn.user.email, 'email-change-notice').data.token).expect(204);
    await signedIn.agent.get('/api/user').expect(401);
    const again = await t.signIn(signedIn.user);
    expect((await again.agent.get('/api/user').expect(200)).body.email).toBe(signedIn.user.email);
  });

  it('re-checks at confirmation that the address is still free (422, the email unchanged)', async () => {
    const signedIn = await t.signedInUser();
    const target = uniqueEmail('raced');
    await requestChange(signedIn, target).expect(200);
    await t.deliverMail();
    await t.makeUser({ email: target.toUpperCase() });
    const res = await confirm(mailTo(target, 'email-change-confirmation').data.token).expect(422);
    expect(res.body).toMatchObject({ errors: { token: ['The email has already been taken.'] } });
    expect((await signedIn.agent.get('/api/user').expect(200)).body).toMatchObject({
      email: signedIn.user.email,
      pending_email: null,
    });
  });

  it('keeps the 422 for a taken address, and a case-only change or the same email needs no password and changes nothing', async () => {
    const taken = await t.makeUser({ email: uniqueEmail('taken') });
    const signedIn = await t.signedInUser();
    const res = await requestChange(signedIn, taken.email.toUpperCase()).expect(422);
    expect(res.body.errors).toEqual({ email: ['The email has already been taken.'] });

    const same = await signedIn.agent
      .put('/api/user')
      .send(replacement(signedIn, { email: signedIn.user.email.toUpperCase() }))
      .expect(200);
    expect(same.body).toMatchObject({ email: signedIn.user.email, pending_email: null });
    await t.deliverMail();
    expect(t.mail.to(signedIn.user.email)).toEqual([]);
  });

  it('writes the notice to the old address in the user language', async () => {
    const signedIn = await t.signedInUser({ preferredLanguage: 'fr-ch', firstName: 'Zoé' });
    const target = uniqueEmail('nouvelle');
    await requestChange(signedIn, target, { preferred_language: 'ge-ch' }).expect(200);
    await t.deliverMail();
    const notice = mailTo(signedIn.user.email, 'email-change-notice');
    expect(notice.subject).toBe('Ihre E-Mail-Adresse wird geändert');
    expect(notice.text).toMatch(/^Grüezi Zoé,/);
    expect(notice.html).toContain('<html lang="ge">');
    expect(mailTo(target, 'email-change-confirmation').subject).toBe(
      'Bestätigen Sie Ihre neue E-Mail-Adresse',
    );
  });

  it('throttles email changes per user: 429 with Retry-After, other edits still pass', async () => {
    const signedIn = await t.signedInUser();
    for (let i = 0; i < 3; i += 1) {
      await requestChange(signedIn, uniqueEmail('many'), { current_password: 'guess number ' + i }).expect(
        422,
      );
    }
    const refused = await requestChange(signedIn, uniqueEmail('many')).expect(429);
    expect(refused.body.error).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await signedIn.agent
      .put('/api/user')
      .send(replacement(signedIn, { first_name: 'Still allowed' }))
      .expect(200);
  });

  describe('addresses with quoted local parts, spaces or control characters are refused', () => {
    const BAD = [
      '"c\r\nBcc: x@y"@example.com',
      '"john doe"@example.com',
      'a\u0085b@example.com',
      'a b@example.com',
    ];
    const PLAIN_ADDRESS = (label: string) =>
      `The ${label} field must be a plain address: no quotes, spaces or control characters.`;

    it.each(BAD)('POST /organizations/signup refuses %j with 422 on contact_email', async (email) => {
      const res = await t.http
        .post('/api/organizations/signup')
        .send({
          name: `Signup ${sequence++}`,
          contact_email: email,
          contact_first_name: 'A',
          contact_last_name: 'B',
          preferred_language: 'en-gb',
        })
        .expect(422);
      expect(res.body.errors).toEqual({ contact_email: [PLAIN_ADDRESS('contact email')] });
    });

    it.each(BAD)('PUT /user refuses %j with 422 on email', async (email) => {
      const signedIn = await t.signedInUser();
      const res = await requestChange(signedIn, email).expect(422);
      expect(res.body.errors).toEqual({ email: [PLAIN_ADDRESS('email')] });
    });

    it.each(BAD)('POST /organizations refuses %j with 422 on manager_email', async (email) => {
      const res = await admin
        .as('super-admin')
        .post('/organizations')
        .send({
          name: `Org ${sequence++}`,
          type: 'reseller',
          manager_email: email,
          manager_first_name: 'A',
          manager_last_name: 'B',
          preferred_language: 'en-gb',
        })
        .expect(422);
      expect(res.body.errors).toEqual({ manager_email: [PLAIN_ADDRESS('manager email')] });
    });

    it.each(BAD)('POST /forgot-password and POST /login refuse %j with 422 on email', async (email) => {
      const forgot = await t.http.post('/api/forgot-password').send({ email }).expect(422);
      expect(forgot.body.errors).toEqual({ email: [PLAIN_ADDRESS('email')] });
      const login = await t.http
        .post('/api/login')
        .send({ email, password: 'whatever it is', device_name: 'test' })
        .expect(422);
      expect(login.body.errors).toEqual({ email: [PLAIN_ADDRESS('email')] });
    });
  });
});
