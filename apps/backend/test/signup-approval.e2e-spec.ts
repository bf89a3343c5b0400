import { createBackendClient, isApiError, type ApiError, type BackendClient } from '@rt/client';
import { rejectionOf } from '@rt/testing';
import { signUpBody, TEST_PASSWORD, uniqueEmail } from './factories';
import { createTestApp, listenForClient, TestApp, UNTHROTTLED_ENV } from './test-app';

/**
 * A public signup gets no way in until a super-admin first approves it
 * (docs/decisions.md D-69). An account without a password whose memberships are all in signups
 * never approved (their manager never notified) gets no reset email, and no reset token works for
 * it, not even one issued before; invitations and accounts with a password are unchanged.
 */
const NEW_PASSWORD = 'a brand new passphrase';

const failureOf = (call: Promise<unknown>): Promise<ApiError> => rejectionOf(call, isApiError);

describe('a public signup before its approval', () => {
  let t: TestApp;
  let baseUrl: string;
  /** Anonymous calls (signup, password reset, sign-in). */
  let anonymous: BackendClient;
  let admin: BackendClient;

  beforeAll(async () => {
    t = await createTestApp({
      env: UNTHROTTLED_ENV,
    });
    baseUrl = await listenForClient(t);
    anonymous = createBackendClient({ baseUrl });
    const adminUser = await t.makeUser({ isSuperAdmin: true });
    admin = createBackendClient({ baseUrl, hat: 'super-admin' });
    await admin.signIn({ email: adminUser.email, password: TEST_PASSWORD, device_name: 'signup e2e' });
  });
  afterAll(() => t.close());

  const signUp = async (contactEmail: string) =>
    anonymous.POST('/organizations/signup', { body: signUpBody(contactEmail) });
  /** Asks for a reset link and delivers the outbox, as its worker would. */
  const forgotAndDeliver = async (email: string) => {
    await anonymous.POST('/forgot-password', { body: { email } });
    await t.deliverMail();
  };
  const lastTokenTo = (email: string, template: string): string | undefined => {
    const message = t.mail.to(email).filter((m) => m.template === template);
    return message.at(-1)?.data.token;
  };
  const reset = (email: string, token: string) =>
    anonymous.POST('/reset-password', { body: { email, token, password: NEW_PASSWORD } });
  const signIn = (email: string, password: string) =>
    createBackendClient({ baseUrl }).signIn({ email, password, device_name: 'phone' });

  const expectInvalidToken = (error: ApiError) => {
    expect(error.status).toBe(422);
    expect(error.body).toEqual({
      message: 'This password reset token is invalid or has expired.',
      errors: { token: ['This password reset token is invalid or has expired.'] },
      error: 'invalid_reset_token',
    });
  };
  const expectWrongCredentials = (error: ApiError) => {
    expect(error.status).toBe(422);
    expect(error.body).toMatchObject({
      message: 'These credentials do not match our records.',
      errors: { email: ['These credentials do not match our records.'] },
    });
  };

  it('gives the contact no way in: signup, forgot-password, reset-password, login, claim', async () => {
    const seller = await t.makeOrganization();
    await admin.POST('/activation-codes/batches', { body: { organisation_id: seller.id, count: 1 } });
    const [code] = (
      await admin.GET('/activation-codes', { params: { query: { organisation_id: seller.id } } })
    ).data;

    const email = uniqueEmail('contact');
    const organization = await signUp(email);
    expect(organization.status).toBe('pending');

    // forgot-password still answers 204 (it says nothing of the address)...
    await forgotAndDeliver(email);
    // ...and whatever token the contact holds (a mailed one, or a guess) sets no password.
    const token = lastTokenTo(email, 'password-reset') ?? 'x'.repeat(48);
    expectInvalidToken(await failureOf(reset(email, token)));
    // So no sign-in, and no claim without a sign-in token.
    expectWrongCredentials(await failureOf(signIn(email, NEW_PASSWORD)));
    const claim = await failureOf(
      anonymous.POST('/activation-codes/claim', { body: { full_code: code.full_code }, hat: 'traveller' }),
    );
    expect(claim.status).toBe(401);
    // No email was sent at all.
    expect(t.mail.to(email)).toEqual([]);
  });

  it('lets the manager in once a super-admin approves: the invitation sets the password, resets work', async () => {
    const email = uniqueEmail('approved');
    const organization = await signUp(email);
    await admin.PATCH('/organizations/{id}/status', {
      params: { path: { id: organization.id } },
      body: { status: 'approved' },
    });
    await t.deliverMail();
    const invitation = lastTokenTo(email, 'invitation');
    expect(invitation).toMatch(/^[A-Za-z0-9]{48}$/);
    await reset(email, invitation!);
    expect((await signIn(email, NEW_PASSWORD)).user.email).toBe(email);

    await forgotAndDeliver(email);
    expect(lastTokenTo(email, 'password-reset')).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('keeps an approved-then-suspended signup able to reset (its manager was invited)', async () => {
    const email = uniqueEmail('suspended');
    const organization = await signUp(email);
    for (const status of ['approved', 'suspended'] as const) {
      await admin.PATCH('/organizations/{id}/status', {
        params: { path: { id: organization.id } },
        body: { status },
      });
      // The approval's invitation is delivered before the reset is asked for: each delivered link
      // replaces the unused ones, so delivering both together would leave whichever came last.
      await t.deliverMail();
    }
    await forgotAndDeliver(email);
    const token = lastTokenTo(email, 'password-reset');
    expect(token).toMatch(/^[A-Za-z0-9]{48}$/);
    await reset(email, token!);
    expect((await signIn(email, NEW_PASSWORD)).user.email).toBe(email);
  });

  it('still resets the password of an account that has one and also signed an organization up', async () => {
    const user = await t.makeUser({ email: uniqueEmail('has-password') });
    await signUp(user.email);
    await forgotAndDeliver(user.email);
    const token = lastTokenTo(user.email, 'password-reset');
    expect(token).toMatch(/^[A-Za-z0-9]{48}$/);
    await reset(user.email, token!);
    expect((await signIn(user.email, NEW_PASSWORD)).user.email).toBe(user.email);
  });

  it('refuses a reset token issued before the account came to belong only to a pending signup', async () => {
    // An account without a password and without organizations asks for a link: it gets one.
    const user = await t.makeUser({ email: uniqueEmail('early'), passwordHash: null });
    await forgotAndDeliver(user.email);
    const token = lastTokenTo(user.email, 'password-reset');
    expect(token).toMatch(/^[A-Za-z0-9]{48}$/);

    // Then it becomes the manager of an organization signed up and never approved.
    const pending = await t.makeOrganization({ status: 'pending' });
    await t.addMember(pending, user, 'manager');

    expectInvalidToken(await failureOf(reset(user.email, token!)));
    expectWrongCredentials(await failureOf(signIn(user.email, NEW_PASSWORD)));

    // Its approval invites it: that link works.
    await admin.PATCH('/organizations/{id}/status', {
      params: { path: { id: pending.id } },
      body: { status: 'approved' },
    });
    await t.deliverMail();
    await reset(user.email, lastTokenTo(user.email, 'invitation')!);
    expect((await signIn(user.email, NEW_PASSWORD)).user.email).toBe(user.email);
  });
  /**
   * A signup naming an existing account (docs/decisions.md D-78): the account is asked by email,
   * at most once per signup window, and becomes the manager only by accepting the link.
   */
  describe('naming an existing account as contact', () => {
    const acceptConsent = (token: string, client: BackendClient = anonymous) =>
      client.POST('/organization-contact-consent', { body: { token } });
    const consentMailsTo = (email: string) =>
      t.mail.to(email).filter((message) => message.template === 'contact-consent');
    const membershipsOf = async (client: BackendClient) =>
      (await client.GET('/user')).memberships.map((m) => ({ id: m.organization.id, role: m.role }));
    const detailsOf = (id: string) =>
      admin.PATCH('/organizations/{id}', { params: { path: { id } }, body: {} });
    const signedInClient = async (email: string) => {
      const client = createBackendClient({ baseUrl });
      await client.signIn({ email, password: TEST_PASSWORD, device_name: 'laptop' });
      return client;
    };
    const expectInvalidConsent = (error: ApiError) => {
      expect(error.status).toBe(422);
      expect(error.body).toEqual({
        message: 'This contact consent link is invalid or has expired.',
        errors: { token: ['This contact consent link is invalid or has expired.'] },
        error: 'invalid_contact_consent_token',
      });
    };

    it('attaches the account only once it accepts the link mailed to it; nobody else can', async () => {
      const owner = await t.makeUser({ email: uniqueEmail('owner') });
      const ownerClient = await signedInClient(owner.email);
      const organization = await signUp(owner.email.toUpperCase());
      expect(organization.status).toBe('pending');

      // No membership yet; the organization keeps the account's email as its contact.
      expect(await membershipsOf(ownerClient)).toEqual([]);
      expect(await detailsOf(organization.id)).toMatchObject({ contact_email: owner.email, members: [] });

      await t.deliverMail();
      const [consentMail] = consentMailsTo(owner.email);
      expect(consentMail.data).toMatchObject({ organization_name: organization.name, first_name: 'Test' });
      expect(consentMail.text).toContain('/organization-contact-consent?token=');
      const token = consentMail.data.token;
      expect(token).toMatch(/^[A-Za-z0-9]{48}$/);

      // Another account, signed in, or nobody: without the token, nothing is accepted.
      const stranger = await signedInClient((await t.makeUser()).email);
      expectInvalidConsent(await failureOf(acceptConsent('x'.repeat(48), stranger)));
      expectInvalidConsent(await failureOf(acceptConsent(token.slice(0, 47))));
      expect(await membershipsOf(stranger)).toEqual([]);
      expect(await membershipsOf(ownerClient)).toEqual([]);

      await acceptConsent(token);
      expect(await membershipsOf(ownerClient)).toEqual([{ id: organization.id, role: 'manager' }]);
      expect((await detailsOf(organization.id)).members).toEqual([
        expect.objectContaining({ id: owner.id, email: owner.email, role: 'manager' }),
      ]);
      // Single use.
      expectInvalidConsent(await failureOf(acceptConsent(token)));
    });

    it('mails an account once per signup window; the approval asks again, the consent then notifies', async () => {
      const owner = await t.makeUser({ email: uniqueEmail('busy') });
      const first = await signUp(owner.email);
      const second = await signUp(owner.email);
      await t.deliverMail();
      expect(consentMailsTo(owner.email).map((m) => m.data.organization_name)).toEqual([first.name]);

      // The approval of the second signup mails the request for it, and attaches nobody.
      await admin.PATCH('/organizations/{id}/status', {
        params: { path: { id: second.id } },
        body: { status: 'approved' },
      });
      await t.deliverMail();
      const mails = consentMailsTo(owner.email);
      expect(mails.map((m) => m.data.organization_name)).toEqual([first.name, second.name]);
      expect(await detailsOf(second.id)).toMatchObject({ contact_email: owner.email, members: [] });

      // Accepting it makes the account the manager, who is now told so as the approval would have.
      await acceptConsent(mails[1].data.token);
      await t.deliverMail();
      expect(t.mail.to(owner.email).at(-1)?.template).toBe('manager-added');
      expect((await detailsOf(second.id)).members).toEqual([
        expect.objectContaining({ id: owner.id, role: 'manager' }),
      ]);
      // The first signup still waits for its own consent.
      expect((await detailsOf(first.id)).members).toEqual([]);
    });

    it('a link mailed to an address the account has left is ended by the confirmed change (D-70)', async () => {
      const owner = await t.makeUser({ email: uniqueEmail('moving') });
      const ownerClient = await signedInClient(owner.email);
      await signUp(owner.email);
      await t.deliverMail();
      const [consentMail] = consentMailsTo(owner.email);

      const newEmail = uniqueEmail('moved');
      await ownerClient.PUT('/user', {
        body: {
          first_name: owner.firstName,
          last_name: owner.lastName,
          email: newEmail,
          preferred_language: owner.preferredLanguage,
          profile_picture_id: null,
          current_password: TEST_PASSWORD,
        },
      });
      await t.deliverMail();
      const confirmation = t.mail.to(newEmail).find((m) => m.template === 'email-change-confirmation');
      await anonymous.POST('/user/email-confirmation', { body: { token: confirmation!.data.token } });

      expectInvalidConsent(await failureOf(acceptConsent(consentMail.data.token)));
      expect(await membershipsOf(ownerClient)).toEqual([]);
    });
  });
});
