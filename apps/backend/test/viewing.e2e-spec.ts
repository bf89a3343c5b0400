import type { Organization } from '../src/organizations/organization.entity';
import type { SignedIn } from './factories';
import { ViewingProbeController } from './viewing-probe.controller';
import { createTestApp, TestApp } from './test-app';

/**
 * The viewing-context matrix of docs/decisions.md D-23, on test routes declared like later features will:
 * `@ViewingAs()` (any hat), `@ViewingAs('organization')`, `@SuperAdminOnly()` with a body.
 * Order: token (401), hat syntax (422), hat held (403 hat_not_held), organization approved
 * (403 organization_not_approved), endpoint rule (403 forbidden), body (422).
 */
describe('X-Viewing-As', () => {
  let t: TestApp;
  let member: SignedIn;
  let admin: SignedIn;
  let approved: Organization;
  let pending: Organization;
  let suspended: Organization;
  let foreign: Organization;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ViewingProbeController] });
    [approved, pending, suspended, foreign] = await Promise.all([
      t.makeOrganization({ status: 'approved' }),
      t.makeOrganization({ status: 'pending' }),
      t.makeOrganization({ status: 'suspended' }),
      t.makeOrganization({ status: 'approved' }),
    ]);
    member = await t.signedInUser();
    for (const organization of [approved, pending, suspended])
      await t.addMember(organization, member.user, 'manager');
    admin = await t.signedInSuperAdmin();
  });
  afterAll(() => t.close());

  const asHat = (who: SignedIn, path: string, hat?: string) => {
    const req = who.agent.get(`/api/test-viewing/${path}`);
    return hat === undefined ? req : req.set('X-Viewing-As', hat);
  };
  const org = (o: Organization) => `organization:${o.id}`;

  it('checks the token first: 401 without one, even without the header', async () => {
    const res = await t.http.get('/api/test-viewing/any').expect(401);
    expect(res.body.error).toBe('unauthenticated');
    await t.http
      .get('/api/test-viewing/any')
      .set('X-Viewing-As', 'malformed')
      .set('Authorization', 'Bearer nope')
      .expect(401);
  });

  it('refuses a missing header with 422 under x-viewing-as', async () => {
    const res = await asHat(member, 'any').expect(422);
    const message =
      'The X-Viewing-As header is required: super-admin, traveller or organization:<organization id>.';
    expect(res.body).toEqual({ message, errors: { 'x-viewing-as': [message] } });
  });

  it.each([
    '',
    'admin',
    'Super-Admin',
    'organization:',
    'organization:42',
    'organization:not-a-uuid',
    'TRAVELLER',
    'traveller,super-admin',
    'organisation:00000000-0000-4000-8000-000000000000',
  ])('refuses the malformed hat %j with 422 under x-viewing-as', async (hat) => {
    const res = await asHat(member, 'any', hat).expect(422);
    expect(Object.keys(res.body.errors)).toEqual(['x-viewing-as']);
  });

  it('lets every signed-in user wear traveller', async () => {
    const res = await asHat(member, 'any', 'traveller').expect(200);
    expect(res.body).toEqual({ hat: 'traveller', user_id: member.user.id, organization_role: null });
  });

  it("lets a member wear an approved organization's hat, with the role", async () => {
    const res = await asHat(member, 'any', org(approved)).expect(200);
    expect(res.body).toEqual({ hat: org(approved), user_id: member.user.id, organization_role: 'manager' });
    const upperCase = await asHat(member, 'organization', `organization:${approved.id.toUpperCase()}`).expect(
      200,
    );
    expect(upperCase.body.hat).toBe(org(approved));
  });

  it('refuses hats the user does not hold with 403 hat_not_held', async () => {
    for (const hat of ['super-admin', org(foreign), 'organization:00000000-0000-4000-8000-000000000000']) {
      const res = await asHat(member, 'any', hat).expect(403);
      expect(res.body).toEqual({ message: 'You do not hold this viewing context.', error: 'hat_not_held' });
    }
  });

  it('refuses the hat of a pending or suspended organization with 403 organization_not_approved', async () => {
    for (const organization of [pending, suspended]) {
      const res = await asHat(member, 'any', org(organization)).expect(403);
      expect(res.body).toEqual({
        message: 'This organization is not approved.',
        error: 'organization_not_approved',
      });
    }
  });

  it('refuses a not-held hat before looking at the organization status', async () => {
    const stranger = await t.signedInUser();
    const res = await asHat(stranger, 'any', org(suspended)).expect(403);
    expect(res.body.error).toBe('hat_not_held');
  });

  it('gives a super-admin every hat, organization approval still applies', async () => {
    await asHat(admin, 'any', 'super-admin').expect(200);
    await asHat(admin, 'any', 'traveller').expect(200);
    const res = await asHat(admin, 'any', org(foreign)).expect(200);
    expect(res.body.organization_role).toBeNull();
    expect((await asHat(admin, 'any', org(pending)).expect(403)).body.error).toBe(
      'organization_not_approved',
    );
    expect(
      (await asHat(admin, 'any', 'organization:00000000-0000-4000-8000-000000000000').expect(403)).body.error,
    ).toBe('hat_not_held');
  });

  it("applies the endpoint's hat rule after the hat is held: 403 forbidden", async () => {
    expect((await asHat(member, 'organization', 'traveller').expect(403)).body.error).toBe('forbidden');
    await asHat(member, 'organization', org(approved)).expect(200);
  });

  describe('a super-admin-only endpoint', () => {
    const post = (who: SignedIn, hat: string, body: object) =>
      who.agent.post('/api/test-viewing/super-admin').set('X-Viewing-As', hat).send(body);

    it('answers a super-admin under the super-admin hat', async () => {
      const res = await post(admin, 'super-admin', { name: 'ok' }).expect(201);
      expect(res.body).toMatchObject({ hat: 'super-admin', name: 'ok' });
    });

    it('refuses a super-admin under an organization or traveller hat with 403 forbidden', async () => {
      for (const hat of [org(foreign), 'traveller']) {
        const res = await post(admin, hat, { name: 'ok' }).expect(403);
        expect(res.body).toEqual({ message: 'This action is forbidden.', error: 'forbidden' });
      }
    });

    it('refuses another user under an organization hat with 403 forbidden, and under super-admin with hat_not_held', async () => {
      expect((await post(member, org(approved), { name: 'ok' }).expect(403)).body.error).toBe('forbidden');
      expect((await post(member, 'super-admin', { name: 'ok' }).expect(403)).body.error).toBe('hat_not_held');
    });

    it('validates the body only after the viewing context', async () => {
      expect((await post(member, org(pending), { name: 'far too long a name' }).expect(403)).body.error).toBe(
        'organization_not_approved',
      );
      expect((await post(member, org(approved), {}).expect(403)).body.error).toBe('forbidden');
      expect((await post(admin, 'bad hat', {}).expect(422)).body.errors).toEqual({
        'x-viewing-as': [expect.any(String)],
      });
      const res = await post(admin, 'super-admin', { name: 'far too long a name' }).expect(422);
      expect(res.body.errors).toEqual({ name: ['The name field must not be greater than 10 characters.'] });
    });
  });

  it('is not needed on GET/PUT /user and POST /logout', async () => {
    const someone = await t.signedInUser();
    await someone.agent.get('/api/user').expect(200);
    await someone.agent.post('/api/logout').expect(204);
  });
});
