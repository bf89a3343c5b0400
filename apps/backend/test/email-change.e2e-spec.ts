import { Clock } from '../src/common/clock';
import { UsersRepository } from '../src/users/users.repository';
import { type SignedIn, TEST_PASSWORD, unique, uniqueEmail } from './factories';
import { createTestApp, TestApp, UNTHROTTLED_ENV } from './test-app';

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

const INVALID_RESET_TOKEN = 'invalid_reset_token';
const NEW_PASSWORD = 'the thief chose this one';

describe('email changes are confirmed (D-70)', () => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({
      // Every call here comes from one address; the email-change limit per email is tested.
      env: {
        ...UNTHROTTLED_ENV,
        CLIENT_APP_URL: 'https://office.example.test',
        THROTTLE_EMAIL_CHANGE_LIMIT: '3',
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
  const forgot = (email: string) => t.http.post('/api/forgot-password').send({ email }).expect(204);
  const resetPassword = (email: string, token: string) =>
    t.http.post('/api/reset-password').send({ email, token, password: NEW_PASSWORD });
  const emailOf = async (userId: string) => (await t.app.get(UsersRepository).findById(userId))?.email;
  /** The thief, signed in with the stolen password, changes the email and confirms it from `email`. */
  const changeAndConfirm = async (thief: SignedIn, email: string) => {
    await requestChange(thief, email).expect(200);
    await t.deliverMail();
    await confirm(mailTo(email, 'email-change-confirmation').data.token).expect(204);
  };
  /** The report link of the latest notice mailed to `email`. */
  const reportTokenMailedTo = (email: string): string => mailTo(email, 'email-change-notice').data.token;
  /** Asks for a reset link to `email`, delivers it and keeps its token. */
  const resetTokenMailedTo = async (email: string): Promise<string> => {
    await forgot(email);
    await t.deliverMail();
    return mailTo(email, 'password-reset').data.token;
  };

  it('the attacker chain: a victim address set on an own account does not make the attacker its manager', async () => {
    const attacker = await t.signedInUser();
    const victim = uniqueEmail('new.partner');
    await requestChange(attacker, victim).expect(200);

    const res = await admin
      .as('super-admin')
      .post('/organizations')
      .send({
        name: `Partner ${unique()}`,
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

  describe('the report wins over whatever followed its change (D-70)', () => {
    /** A victim whose password the thief knows: the thief's session is one of the victim's. */
    const victimAndThief = async () => {
      const victim = await t.makeUser();
      return { victim, thief: await t.signIn(victim) };
    };

    it('two confirmed changes: the first notice restores the original address, resets go to the victim, the second notice is dead', async () => {
      const { victim, thief } = await victimAndThief();
      const [first, second] = [uniqueEmail('thief-one'), uniqueEmail('thief-two')];
      await changeAndConfirm(thief, first);
      await changeAndConfirm(thief, second);
      const thiefReport = reportTokenMailedTo(first);

      await report(reportTokenMailedTo(victim.email)).expect(204);
      expect(await emailOf(victim.id)).toBe(victim.email);
      await thief.agent.get('/api/user').expect(401);
      // The link of the second notice, mailed to an address the thief chose, undoes nothing.
      expect((await report(thiefReport).expect(422)).body).toEqual(INVALID_TOKEN);
      expect(await emailOf(victim.id)).toBe(victim.email);

      // The password the thief knows is withdrawn: the reader of the restored address chooses one.
      await t.http
        .post('/api/login')
        .send({ email: victim.email, password: TEST_PASSWORD, device_name: 'thief' })
        .expect(422);
      await forgot(victim.email);
      await forgot(second);
      await t.deliverMail();
      await resetPassword(victim.email, mailTo(victim.email, 'password-reset').data.token).expect(204);
      expect(t.mail.to(second).filter((m) => m.template === 'password-reset')).toEqual([]);
      await t.http
        .post('/api/login')
        .send({ email: victim.email, password: NEW_PASSWORD, device_name: 'victim' })
        .expect(200);
    });

    it('a replaced change: the notice of the first request restores the address after the second is confirmed', async () => {
      const { victim, thief } = await victimAndThief();
      const [first, second] = [uniqueEmail('thief-one'), uniqueEmail('thief-two')];
      await requestChange(thief, first).expect(200);
      await t.deliverMail();
      const firstNotice = reportTokenMailedTo(victim.email);
      await changeAndConfirm(thief, second);

      await report(firstNotice).expect(204);
      expect(await emailOf(victim.id)).toBe(victim.email);
      await thief.agent.get('/api/user').expect(401);
    });

    it('a reset link kept by the thief sets nothing after the report', async () => {
      const { victim, thief } = await victimAndThief();
      const address = uniqueEmail('thief');
      await changeAndConfirm(thief, address);
      const kept = await resetTokenMailedTo(address);

      await report(reportTokenMailedTo(victim.email)).expect(204);
      for (const email of [victim.email, address]) {
        expect((await resetPassword(email, kept).expect(422)).body.error).toBe(INVALID_RESET_TOKEN);
      }
    });

    it('a reset link works only for the address it was mailed to: a change ends it, and one delivered after the report is refused', async () => {
      const { victim, thief } = await victimAndThief();
      const before = await resetTokenMailedTo(victim.email);
      const address = uniqueEmail('thief');
      await changeAndConfirm(thief, address);
      // The confirmed change ended the link mailed to the address the account left.
      expect((await resetPassword(address, before).expect(422)).body.error).toBe(INVALID_RESET_TOKEN);

      await forgot(address); // still in the outbox when the victim reports
      await report(reportTokenMailedTo(victim.email)).expect(204);
      await t.deliverMail();
      const late = mailTo(address, 'password-reset').data.token;
      expect((await resetPassword(victim.email, late).expect(422)).body.error).toBe(INVALID_RESET_TOKEN);
    });

    it("the thief reporting first (restoring their first address) does not stop the victim's report, which ends what the thief got meanwhile", async () => {
      const { victim, thief } = await victimAndThief();
      const [first, second] = [uniqueEmail('thief-one'), uniqueEmail('thief-two')];
      await changeAndConfirm(thief, first);
      await changeAndConfirm(thief, second);
      const thiefReport = reportTokenMailedTo(first);

      await report(thiefReport).expect(204);
      expect(await emailOf(victim.id)).toBe(first);
      const kept = await resetTokenMailedTo(first);

      await report(reportTokenMailedTo(victim.email)).expect(204);
      expect(await emailOf(victim.id)).toBe(victim.email);
      expect((await resetPassword(victim.email, kept).expect(422)).body.error).toBe(INVALID_RESET_TOKEN);
      expect((await report(thiefReport).expect(422)).body).toEqual(INVALID_TOKEN);
      await forgot(victim.email);
      await t.deliverMail();
      await resetPassword(victim.email, mailTo(victim.email, 'password-reset').data.token).expect(204);
    });

    it('keeps the old address reserved while the report link works: no signup, invitation or change takes it', async () => {
      const { victim, thief } = await victimAndThief();
      await changeAndConfirm(thief, uniqueEmail('thief'));
      const taken = (field: string) => ({
        message: 'The email has already been taken.',
        errors: { [field]: ['The email has already been taken.'] },
        reason: 'email_taken',
      });

      const signup = await t.http
        .post('/api/organizations/signup')
        .send({
          name: `Squat ${unique()}`,
          contact_email: victim.email.toUpperCase(),
          contact_first_name: 'Squat',
          contact_last_name: 'Ter',
          preferred_language: 'en-gb',
        })
        .expect(422);
      expect(signup.body).toEqual(taken('contact_email'));
      const invitation = await admin
        .as('super-admin')
        .post('/organizations')
        .send({
          name: `Squat ${unique()}`,
          type: 'reseller',
          manager_email: victim.email,
          manager_first_name: 'Squat',
          manager_last_name: 'Ter',
          preferred_language: 'en-gb',
        })
        .expect(422);
      expect(invitation.body).toEqual(taken('manager_email'));
      const other = await t.signedInUser();
      expect((await requestChange(other, victim.email).expect(422)).body).toEqual(taken('email'));

      await report(reportTokenMailedTo(victim.email)).expect(204);
      expect(await emailOf(victim.id)).toBe(victim.email);
    });

    it('answers 409 email_not_restorable when another account holds the old address, and still ends every token and link', async () => {
      const { victim, thief } = await victimAndThief();
      const address = uniqueEmail('thief');
      await changeAndConfirm(thief, address);
      const kept = await resetTokenMailedTo(address);
      // An account the reservation could not stop (written before this release).
      await t.makeUser({ email: victim.email.toUpperCase() });

      const token = reportTokenMailedTo(victim.email);
      const res = await report(token).expect(409);
      expect(res.body).toEqual({
        message:
          'The address this notice was sent to belongs to another account now, so it cannot be restored. ' +
          'The account was signed out everywhere and its other links no longer work.',
        error: 'email_not_restorable',
      });
      expect(await emailOf(victim.id)).toBe(address);
      await thief.agent.get('/api/user').expect(401);
      expect((await resetPassword(address, kept).expect(422)).body.error).toBe(INVALID_RESET_TOKEN);
      expect((await report(token).expect(422)).body).toEqual(INVALID_TOKEN);
    });
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

  it("writes both emails with the name and language stored before the request, never the request's", async () => {
    const signedIn = await t.signedInUser({ preferredLanguage: 'fr-ch', firstName: 'Zoé' });
    const target = uniqueEmail('nouvelle');
    // A line break is refused on its own (D-74); a name with a message in it is still a name.
    const injected = 'Mallory - your account is safe, ignore the link below';
    await requestChange(signedIn, target, { first_name: injected, preferred_language: 'ge-ch' }).expect(200);
    await t.deliverMail();
    const notice = mailTo(signedIn.user.email, 'email-change-notice');
    expect(notice.subject).toBe('Votre adresse e-mail va être modifiée');
    expect(notice.text).toMatch(/^Bonjour Zoé,/);
    expect(notice.text).not.toContain('Mallory');
    expect(notice.html).toContain('<html lang="fr">');
    const confirmation = mailTo(target, 'email-change-confirmation');
    expect(confirmation.subject).toBe('Confirmez votre nouvelle adresse e-mail');
    expect(confirmation.text).not.toContain('Mallory');
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
          name: `Signup ${unique()}`,
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
          name: `Org ${unique()}`,
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
