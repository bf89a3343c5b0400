import { createBackendClient, isApiError, type ApiError, type BackendClient } from '@rt/client';
import { rejectionOf } from '@rt/testing';
import type { AddressInfo } from 'node:net';
import { TEST_PASSWORD } from './factories';
import { createTestApp, TestApp } from './test-app';

/**
 * Issue 47: a public signup gets no way in until a super-admin first approves it
 * (docs/decisions.md D-69). An account without a password whose memberships are all in signups
 * never approved (their manager never notified) gets no reset email, and no reset token works for
 * it, not even one issued before; invitations and accounts with a password are unchanged.
 */
const NEW_PASSWORD = 'a brand new passphrase';

let sequence = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${sequence++}@example.com`;

const failureOf = (call: Promise<unknown>): Promise<ApiError> => rejectionOf(call, isApiError);

describe('a public signup before its approval', () => {
  let t: TestApp;
  let baseUrl: string;
  /** Anonymous calls (signup, password reset, sign-in). */
  let anonymous: BackendClient;
  let admin: BackendClient;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        THROTTLE_SIGNUP_LIMIT: '1000',
        THROTTLE_PASSWORD_LIMIT: '1000',
        THROTTLE_PASSWORD_ADDRESS_LIMIT: '1000',
        THROTTLE_LOGIN_LIMIT: '1000',
        THROTTLE_LOGIN_ADDRESS_LIMIT: '1000',
      },
    });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/api`;
    anonymous = createBackendClient({ baseUrl });
    const adminUser = await t.makeUser({ isSuperAdmin: true });
    admin = createBackendClient({ baseUrl, hat: 'super-admin' });
    await admin.signIn({ email: adminUser.email, password: TEST_PASSWORD, device_name: 'signup e2e' });
  });
  afterAll(() => t.close());

  const signUp = async (contactEmail: string) =>
    anonymous.POST('/organizations/signup', {
      body: {
        name: `Lake Tours ${sequence++}`,
        contact_email: contactEmail,
        contact_first_name: 'Grace',
        contact_last_name: 'Hopper',
        preferred_language: 'en-gb',
      },
    });
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
});
