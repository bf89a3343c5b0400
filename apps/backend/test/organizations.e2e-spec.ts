import { MailOutbox } from '../src/mail/mail-outbox';
import { OrganizationsDemoSeed } from '../src/organizations/organizations-demo-seed';
import type { Organization, OrganizationStatus } from '../src/organizations/organization.entity';
import { type ActingAs, type SignedIn, uniqueEmail } from './factories';
import { createTestApp, createTestAppAsSuperAdmin, TestApp } from './test-app';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let sequence = 0;

const createBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Alpine Adventures ${sequence++}`,
  type: 'reseller',
  description: 'Guided tours in the Alps.',
  manager_email: uniqueEmail('manager'),
  manager_first_name: 'Ada',
  manager_last_name: 'Lovelace',
  preferred_language: 'fr-ch',
  ...overrides,
});

const signupBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Lake Tours ${sequence++}`,
  description: 'Boat trips.',
  contact_email: uniqueEmail('contact'),
  contact_first_name: 'Grace',
  contact_last_name: 'Hopper',
  preferred_language: 'en-gb',
  ...overrides,
});

interface OutboxRow {
  template: string;
  recipient: string;
  language: string;
  payload: Record<string, string>;
}

describe('organizations', () => {
  let t: TestApp;
  let admin: SignedIn;
  let asAdmin: ActingAs;

  beforeAll(async () => {
    // Signups are throttled per address; this file signs up many times from one address.
    ({ t, admin, asAdmin } = await createTestAppAsSuperAdmin({ env: { THROTTLE_SIGNUP_LIMIT: '1000' } }));
  });
  afterAll(() => t.close());

  /** What the outbox holds for this address (any case), oldest first. */
  const outboxOf = (email: string): Promise<OutboxRow[]> =>
    t.dataSource.query(
      `SELECT template, recipient, language, payload FROM mail_outbox
        WHERE lower(recipient) = lower($1) ORDER BY created_at, id`,
      [email],
    );
  const usersWithEmail = async (email: string) =>
    (
      await t.dataSource.query<{ id: string; password_hash: string | null }[]>(
        'SELECT id, password_hash FROM users WHERE lower(email) = lower($1)',
        [email],
      )
    ).map((row) => row);
  const countOf = async (table: 'organizations' | 'users' | 'memberships' | 'mail_outbox') =>
    Number((await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);
  const managerInvitedAt = async (id: string): Promise<Date | null> =>
    (
      await t.dataSource.query<{ manager_invited_at: Date | null }[]>(
        'SELECT manager_invited_at FROM organizations WHERE id = $1',
        [id],
      )
    )[0].manager_invited_at;

  const setStatus = (id: string, status: unknown) =>
    asAdmin.patch(`/organizations/${id}/status`).send({ status });
  const signUp = (body: Record<string, unknown>) => t.http.post('/api/organizations/signup').send(body);

  /** A signup approved or suspended as asked: its manager has not heard from us. */
  const signedUp = async (overrides: Record<string, unknown> = {}) => {
    const body = signupBody(overrides);
    const res = await signUp(body).expect(201);
    return { id: res.body.id as string, email: body.contact_email as string };
  };

  describe('POST /organizations', () => {
    it('creates a pending organization, its manager account without a password, and an invitation', async () => {
      const body = createBody({ commission: 12.5, commission_type: 'percent' });
      const res = await asAdmin.post('/organizations').send(body).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: body.name,
        type: 'reseller',
        status: 'pending',
        description: 'Guided tours in the Alps.',
        contact_email: body.manager_email,
        commission: '12.50',
        commission_type: 'percent',
        activation_codes_count: 0,
        activation_codes_in_stock_count: 0,
        created_at: expect.stringMatching(ISO_UTC),
        members: [
          {
            id: expect.any(String),
            email: body.manager_email,
            first_name: 'Ada',
            last_name: 'Lovelace',
            role: 'manager',
          },
        ],
      });
      const [user] = await usersWithEmail(body.manager_email);
      expect(user.password_hash).toBeNull();
      expect(res.body.members[0].id).toBe(user.id);
      const [account] = await t.dataSource.query(
        'SELECT first_name, last_name, preferred_language, is_super_admin FROM users WHERE id = $1',
        [user.id],
      );
      expect(account).toEqual({
        first_name: 'Ada',
        last_name: 'Lovelace',
        preferred_language: 'fr-ch',
        is_super_admin: false,
      });
      expect(await outboxOf(body.manager_email)).toEqual([
        {
          template: 'invitation',
          recipient: body.manager_email,
          language: 'fr-ch',
          payload: { user_id: user.id, first_name: 'Ada', organization_name: body.name },
        },
      ]);
      expect(await managerInvitedAt(res.body.id)).toBeInstanceOf(Date);
    });

    it('delivers the invitation with a set-password link, and manager-added to an account with a password', async () => {
      const body = createBody({ preferred_language: 'en-gb' });
      await asAdmin.post('/organizations').send(body).expect(201);
      const existing = await t.makeUser({ email: uniqueEmail('delivered') });
      await asAdmin
        .post('/organizations')
        .send(createBody({ manager_email: existing.email }))
        .expect(201);
      await t.deliverMail();
      const invitation = t.mail.lastTo(body.manager_email);
      expect(invitation).toMatchObject({ to: body.manager_email, template: 'invitation' });
      expect(invitation?.text).toContain(body.name);
      expect(String(invitation?.data.link)).toContain('accept-invitation');
      expect(t.mail.lastTo(existing.email)).toMatchObject({ template: 'manager-added' });
    });

    it('applies the storage defaults without the commission pair, and takes a fixed commission', async () => {
      const plain = await asAdmin
        .post('/organizations')
        .send(createBody({ type: 'region' }))
        .expect(201);
      expect(plain.body).toMatchObject({ type: 'region', commission: '0.00', commission_type: 'percent' });
      const fixed = await asAdmin
        .post('/organizations')
        .send(createBody({ commission: 99999999.99, commission_type: 'fixed', description: null }))
        .expect(201);
      expect(fixed.body).toMatchObject({
        commission: '99999999.99',
        commission_type: 'fixed',
        description: null,
      });
    });

    it('makes an existing account with a password the manager: manager-added in its language, no new user', async () => {
      const existing = await t.makeUser({ email: uniqueEmail('Existing'), preferredLanguage: 'ge-ch' });
      const body = createBody({ manager_email: existing.email.toUpperCase(), manager_first_name: 'Other' });
      const res = await asAdmin.post('/organizations').send(body).expect(201);
      expect(res.body.contact_email).toBe(existing.email);
      expect(res.body.members).toEqual([
        { id: existing.id, email: existing.email, first_name: 'Test', last_name: 'User', role: 'manager' },
      ]);
      expect(await usersWithEmail(existing.email)).toHaveLength(1);
      expect(await outboxOf(existing.email)).toEqual([
        {
          template: 'manager-added',
          recipient: existing.email,
          language: 'ge-ch',
          payload: { first_name: 'Test', organization_name: body.name },
        },
      ]);
    });

    it('invites again an existing account that never set a password', async () => {
      const first = createBody();
      await asAdmin.post('/organizations').send(first).expect(201);
      const second = createBody({ manager_email: first.manager_email });
      await asAdmin.post('/organizations').send(second).expect(201);
      expect(await usersWithEmail(first.manager_email)).toHaveLength(1);
      expect(
        (await outboxOf(first.manager_email)).map((m) => [m.template, m.payload.organization_name]),
      ).toEqual([
        ['invitation', first.name],
        ['invitation', second.name],
      ]);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no manager first name', { manager_first_name: undefined }, 'manager_first_name'],
      ['no manager last name', { manager_last_name: undefined }, 'manager_last_name'],
      ['an empty manager last name', { manager_last_name: '' }, 'manager_last_name'],
      ['the type partner', { type: 'partner' }, 'type'],
      ['a commission without its type', { commission: 10 }, 'commission_type'],
      ['a commission type without the commission', { commission_type: 'fixed' }, 'commission'],
      ['a bad preferred language', { preferred_language: 'de-de' }, 'preferred_language'],
      ['a bad manager email', { manager_email: 'not-an-email' }, 'manager_email'],
      ['a commission with 3 decimals', { commission: 12.345, commission_type: 'fixed' }, 'commission'],
      ['a percent commission over 100', { commission: 100.01, commission_type: 'percent' }, 'commission'],
      ['a negative commission', { commission: -1, commission_type: 'fixed' }, 'commission'],
      ['a commission as a string', { commission: '12.50', commission_type: 'fixed' }, 'commission'],
      ['an unknown commission type', { commission: 1, commission_type: 'flat' }, 'commission_type'],
      ['a name over 255 characters', { name: 'x'.repeat(256) }, 'name'],
      ['a description over 5000 characters', { description: 'x'.repeat(5001) }, 'description'],
    ])('refuses %s with 422 on that field, writing nothing', async (_case, overrides, field) => {
      const before = await Promise.all([countOf('organizations'), countOf('users'), countOf('mail_outbox')]);
      const body = createBody(overrides);
      const res = await asAdmin.post('/organizations').send(body).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.errors[field]).toHaveLength(1);
      expect(await Promise.all([countOf('organizations'), countOf('users'), countOf('mail_outbox')])).toEqual(
        before,
      );
    });

    it('names the missing half of the commission pair', async () => {
      const res = await asAdmin
        .post('/organizations')
        .send(createBody({ commission: 5 }))
        .expect(422);
      expect(res.body.errors).toEqual({
        commission_type: ['The commission type field is required when commission is present.'],
      });
    });

    it('writes nothing when a step fails after the user is inserted (one transaction)', async () => {
      const body = createBody();
      const before = await Promise.all([
        countOf('organizations'),
        countOf('users'),
        countOf('memberships'),
        countOf('mail_outbox'),
      ]);
      const enqueue = jest
        .spyOn(t.app.get(MailOutbox), 'enqueue')
        .mockRejectedValueOnce(new Error('outbox down'));
      try {
        const res = await asAdmin.post('/organizations').send(body).expect(500);
        expect(res.body.error).toBe('internal_error');
      } finally {
        enqueue.mockRestore();
      }
      expect(await usersWithEmail(body.manager_email)).toEqual([]);
      expect(
        await Promise.all([
          countOf('organizations'),
          countOf('users'),
          countOf('memberships'),
          countOf('mail_outbox'),
        ]),
      ).toEqual(before);
    });
  });

  describe('super-admin routes under other hats', () => {
    let organization: Organization;
    let member: SignedIn;

    beforeAll(async () => {
      organization = await t.makeOrganization({ status: 'approved' });
      member = await t.signedInUser();
      await t.addMember(organization, member.user, 'manager');
    });

    it.each([
      ['get', '/api/organizations', undefined],
      ['post', '/api/organizations', createBody()],
      ['patch', `/api/organizations/${UNKNOWN_ID}`, { name: 'x' }],
      ['patch', `/api/organizations/${UNKNOWN_ID}/status`, { status: 'approved' }],
    ] as const)('%s %s → 403 forbidden under traveller and organization hats', async (method, path, body) => {
      for (const hat of ['traveller', `organization:${organization.id}`]) {
        const res = await member.agent[method](path).set('X-Viewing-As', hat).send(body).expect(403);
        expect(res.body.error).toBe('forbidden');
      }
      // A super-admin under another hat is refused too.
      const res = await admin.agent[method](path).set('X-Viewing-As', 'traveller').send(body).expect(403);
      expect(res.body.error).toBe('forbidden');
    });

    it('asks for a token first (401) and for the hat (422)', async () => {
      await t.http.get('/api/organizations').expect(401);
      const res = await admin.agent.get('/api/organizations').expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['x-viewing-as']);
    });
  });

  describe('GET /organizations/default', () => {
    it('answers the summary of the default organization to any signed-in user, without a hat', async () => {
      const someone = await t.signedInUser();
      const res = await someone.agent.get('/api/organizations/default').expect(200);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Default organization',
        type: 'reseller',
        status: 'approved',
      });
      await t.http.get('/api/organizations/default').expect(401);
    });
  });

  describe('GET /organization', () => {
    const asMember = async (status: OrganizationStatus, role: 'manager' | 'member') => {
      const organization = await t.makeOrganization({ status });
      const who = await t.signedInUser();
      await t.addMember(organization, who.user, role);
      return { organization, who, hat: `organization:${organization.id}` };
    };

    it.each([
      ['pending', 'manager'],
      ['pending', 'member'],
      ['suspended', 'manager'],
      ['suspended', 'member'],
    ] as const)(
      'refuses a %s organization to its %s: 403 organization_not_approved',
      async (status, role) => {
        const { who, hat } = await asMember(status, role);
        const res = await who.as(hat).get('/organization').expect(403);
        expect(res.body.error).toBe('organization_not_approved');
      },
    );

    it('answers the details once the organization is approved', async () => {
      const { organization, who, hat } = await asMember('pending', 'member');
      const manager = await t.makeUser({ firstName: 'Mia', lastName: 'Zed' });
      await t.addMember(organization, manager, 'manager');
      await who.as(hat).get('/organization').expect(403);
      await setStatus(organization.id, 'approved').expect(200);
      const res = await who.as(hat).get('/organization').expect(200);
      expect(res.body).toMatchObject({
        id: organization.id,
        status: 'approved',
        contact_email: manager.email,
        members: [
          { id: manager.id, email: manager.email, first_name: 'Mia', last_name: 'Zed', role: 'manager' },
          { id: who.user.id, email: who.user.email, role: 'member' },
        ],
      });
    });

    it('refuses another hat with 403 forbidden and a hat not held with 403 hat_not_held', async () => {
      const { who } = await asMember('approved', 'member');
      const other = await t.makeOrganization({ status: 'approved' });
      let res = await who.as('traveller').get('/organization').expect(403);
      expect(res.body.error).toBe('forbidden');
      res = await who.as(`organization:${other.id}`).get('/organization').expect(403);
      expect(res.body.error).toBe('hat_not_held');
    });
  });

  describe('POST /organizations/signup', () => {
    it('creates a pending reseller whose new contact is the manager, without token or email', async () => {
      const body = signupBody({ type: 'region', status: 'approved' });
      const res = await signUp(body).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: body.name,
        type: 'reseller',
        status: 'pending',
      });
      const [user] = await usersWithEmail(body.contact_email);
      expect(user.password_hash).toBeNull();
      const details = await asAdmin.patch(`/organizations/${res.body.id}`).send({}).expect(200);
      expect(details.body).toMatchObject({
        status: 'pending',
        description: 'Boat trips.',
        contact_email: body.contact_email,
        members: [{ id: user.id, first_name: 'Grace', last_name: 'Hopper', role: 'manager' }],
      });
      expect(await outboxOf(body.contact_email)).toEqual([]);
      expect(await managerInvitedAt(res.body.id)).toBeNull();
    });

    it('names an existing account (any case) as the contact, asks its consent, attaches nothing yet', async () => {
      const existing = await t.makeUser({ email: uniqueEmail('known') });
      const res = await signUp(signupBody({ contact_email: `  ${existing.email.toUpperCase()}` }));
      // The email field does not trim: a leading space is not an address.
      expect(res.status).toBe(422);
      const ok = await signUp(signupBody({ contact_email: existing.email.toUpperCase() })).expect(201);
      const details = await asAdmin.patch(`/organizations/${ok.body.id}`).send({}).expect(200);
      // docs/decisions.md D-78: no membership until the account accepts; the contact email stays.
      expect(details.body).toMatchObject({ contact_email: existing.email, members: [] });
      expect(await usersWithEmail(existing.email)).toHaveLength(1);
      expect(await outboxOf(existing.email)).toEqual([
        {
          template: 'contact-consent',
          recipient: existing.email,
          language: 'en-gb',
          payload: { consent_id: expect.any(String), first_name: 'Test', organization_name: ok.body.name },
        },
      ]);
    });

    it('refuses an expired consent link with 422 invalid_contact_consent_token, attaching nothing', async () => {
      const existing = await t.makeUser({ email: uniqueEmail('late') });
      const { id } = await signedUp({ contact_email: existing.email });
      await t.deliverMail();
      const token = t.mail.lastTo(existing.email)?.data.token;
      await t.dataSource.query(
        `UPDATE signup_contact_consent_tokens SET expires_at = now() - interval '1 second'
          WHERE consent_id IN (SELECT id FROM signup_contact_consents WHERE organization_id = $1)`,
        [id],
      );
      const res = await t.http.post('/api/organization-contact-consent').send({ token }).expect(422);
      expect(res.body).toMatchObject({
        error: 'invalid_contact_consent_token',
        errors: { token: [expect.any(String)] },
      });
      expect((await asAdmin.patch(`/organizations/${id}`).send({}).expect(200)).body.members).toEqual([]);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no contact email', { contact_email: undefined }, 'contact_email'],
      ['a bad contact email', { contact_email: 'nope' }, 'contact_email'],
      ['no contact first name', { contact_first_name: undefined }, 'contact_first_name'],
      ['no name', { name: undefined }, 'name'],
      ['a bad preferred language', { preferred_language: 'fr' }, 'preferred_language'],
      ['a name with a line separator', { name: 'Alpine\u2028Adventures' }, 'name'],
      ['a contact first name with a line break', { contact_first_name: 'Ada\r\nBcc' }, 'contact_first_name'],
    ])('refuses %s with 422, writing nothing', async (_case, overrides, field) => {
      const before = await Promise.all([countOf('organizations'), countOf('users')]);
      const res = await signUp(signupBody(overrides)).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(await Promise.all([countOf('organizations'), countOf('users')])).toEqual(before);
    });
  });

  describe('PATCH /organizations/{id}/status', () => {
    it('pending → approved sends the first invitation to a signup contact without a password', async () => {
      const { id, email } = await signedUp();
      const res = await setStatus(id, 'approved').expect(200);
      expect(res.body).toMatchObject({ id, status: 'approved', contact_email: email });
      const [user] = await usersWithEmail(email);
      expect(await outboxOf(email)).toEqual([
        {
          template: 'invitation',
          recipient: email,
          language: 'en-gb',
          payload: { user_id: user.id, first_name: 'Grace', organization_name: res.body.name },
        },
      ]);
      expect(await managerInvitedAt(id)).toBeInstanceOf(Date);
    });

    it('pending → approved asks an existing contact account again while it has not consented', async () => {
      const existing = await t.makeUser({ email: uniqueEmail('pw') });
      const { id } = await signedUp({ contact_email: existing.email });
      const res = await setStatus(id, 'approved').expect(200);
      expect(res.body).toMatchObject({ status: 'approved', contact_email: existing.email, members: [] });
      expect((await outboxOf(existing.email)).map((m) => m.template)).toEqual([
        'contact-consent',
        'contact-consent',
      ]);
      expect(await managerInvitedAt(id)).toBeInstanceOf(Date);
    });

    it('pending → approved sends manager-added to an existing contact account that consented', async () => {
      const existing = await t.makeUser({ email: uniqueEmail('consented') });
      const { id } = await signedUp({ contact_email: existing.email });
      await t.deliverMail();
      const token = t.mail.lastTo(existing.email)?.data.token;
      await t.http.post('/api/organization-contact-consent').send({ token }).expect(204);
      await setStatus(id, 'approved').expect(200);
      expect((await outboxOf(existing.email)).map((m) => m.template)).toEqual([
        'contact-consent',
        'manager-added',
      ]);
    });

    it('pending → approved sends nothing more for an organization created by a super-admin', async () => {
      const body = createBody();
      const created = await asAdmin.post('/organizations').send(body).expect(201);
      await setStatus(created.body.id, 'approved').expect(200);
      expect((await outboxOf(body.manager_email)).map((m) => m.template)).toEqual(['invitation']);
    });

    it('pending → suspended sends nothing; the first approval later sends the invitation, once', async () => {
      const { id, email } = await signedUp();
      const suspended = await setStatus(id, 'suspended').expect(200);
      expect(suspended.body.status).toBe('suspended');
      expect(await outboxOf(email)).toEqual([]);
      await setStatus(id, 'approved').expect(200);
      await setStatus(id, 'suspended').expect(200);
      await setStatus(id, 'approved').expect(200);
      expect((await outboxOf(email)).map((m) => m.template)).toEqual(['invitation']);
    });

    it('approved → suspended sends nothing; suspended → approved reactivates and sends nothing', async () => {
      const { id, email } = await signedUp();
      await setStatus(id, 'approved').expect(200);
      const invitedAt = await managerInvitedAt(id);
      expect((await setStatus(id, 'suspended').expect(200)).body.status).toBe('suspended');
      expect((await setStatus(id, 'approved').expect(200)).body.status).toBe('approved');
      expect(await outboxOf(email)).toHaveLength(1);
      expect(await managerInvitedAt(id)).toEqual(invitedAt);
    });

    it.each(['approved', 'suspended'] as const)(
      '%s → the same is a no-op 200 without email',
      async (status) => {
        // A manager who never heard from us: even so, no move means no email.
        const organization = await t.makeOrganization({ status });
        const manager = await t.makeUser({ passwordHash: null });
        await t.addMember(organization, manager, 'manager');
        const res = await setStatus(organization.id, status).expect(200);
        expect(res.body).toMatchObject({ status, contact_email: manager.email });
        expect(await outboxOf(manager.email)).toEqual([]);
        expect(await managerInvitedAt(organization.id)).toBeNull();
      },
    );

    it.each(['pending', 'approved'] as const)(
      'refuses to move an organization that is %s back to pending (422)',
      async (status) => {
        const organization = await t.makeOrganization({ status });
        const res = await setStatus(organization.id, 'pending').expect(422);
        expect(res.body).toEqual({
          message: 'An organization cannot return to pending.',
          errors: { status: ['An organization cannot return to pending.'] },
        });
      },
    );

    it.each([['rejected'], [''], [null], [42], [undefined]])(
      'refuses the status %j with 422',
      async (status) => {
        const organization = await t.makeOrganization({ status: 'pending' });
        const res = await setStatus(organization.id, status).expect(422);
        expect(Object.keys(res.body.errors)).toEqual(['status']);
      },
    );

    it('answers 404 for an unknown or malformed id, after validating the body', async () => {
      expect((await setStatus(UNKNOWN_ID, 'approved').expect(404)).body.error).toBe('not_found');
      expect((await setStatus('not-a-uuid', 'approved').expect(404)).body.error).toBe('not_found');
      await setStatus(UNKNOWN_ID, 'pending').expect(422);
      await setStatus(UNKNOWN_ID, 'rejected').expect(422);
      await setStatus('not-a-uuid', 'pending').expect(422);
    });

    it('sends one invitation when two approvals race', async () => {
      const { id, email } = await signedUp();
      const answers = await Promise.all([setStatus(id, 'approved'), setStatus(id, 'approved')]);
      expect(answers.map((res) => res.status)).toEqual([200, 200]);
      expect((await outboxOf(email)).map((m) => m.template)).toEqual(['invitation']);
    });
  });

  describe('PATCH /organizations/{id}', () => {
    it('changes the fields sent and leaves the others', async () => {
      const created = await asAdmin
        .post('/organizations')
        .send(createBody({ commission: 5, commission_type: 'fixed' }))
        .expect(201);
      const id = created.body.id as string;
      let res = await asAdmin.patch(`/organizations/${id}`).send({ name: 'Renamed' }).expect(200);
      expect(res.body).toMatchObject({
        name: 'Renamed',
        description: 'Guided tours in the Alps.',
        commission: '5.00',
        commission_type: 'fixed',
      });
      expect(res.body.members).toHaveLength(1);
      res = await asAdmin
        .patch(`/organizations/${id}`)
        .send({ description: null, commission: 12.5, commission_type: 'percent' })
        .expect(200);
      expect(res.body).toMatchObject({
        name: 'Renamed',
        description: null,
        commission: '12.50',
        commission_type: 'percent',
      });
      res = await asAdmin.patch(`/organizations/${id}`).send({}).expect(200);
      expect(res.body).toMatchObject({ name: 'Renamed', commission: '12.50' });
    });

    it.each<[Record<string, unknown>, string]>([
      [{ commission: 3 }, 'commission_type'],
      [{ commission_type: 'percent' }, 'commission'],
      [{ commission: 101, commission_type: 'percent' }, 'commission'],
      [{ commission: 1.005, commission_type: 'fixed' }, 'commission'],
      [{ name: null }, 'name'],
      [{ name: '' }, 'name'],
    ])('refuses %j with 422 on %s, changing nothing', async (body, field) => {
      const organization = await t.makeOrganization({ name: 'Unchanged' });
      const res = await asAdmin.patch(`/organizations/${organization.id}`).send(body).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      const [row] = await t.dataSource.query('SELECT name, commission FROM organizations WHERE id = $1', [
        organization.id,
      ]);
      expect(row).toEqual({ name: 'Unchanged', commission: '0.00' });
    });

    it('answers 404 for an unknown or malformed id', async () => {
      expect(
        (await asAdmin.patch(`/organizations/${UNKNOWN_ID}`).send({ name: 'x' }).expect(404)).body.error,
      ).toBe('not_found');
      await asAdmin.patch('/organizations/42').send({}).expect(404);
    });
  });
});

describe('GET /organizations (a database of its own)', () => {
  let t: TestApp;
  let admin: SignedIn;
  const list = (query: string) => admin.as('super-admin').get(`/organizations${query}`);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signedInSuperAdmin();
    // With the seeded default organization (a reseller): 4 resellers, 3 regions.
    for (const [name, type, status] of [
      ['Bravo Region', 'region', 'approved'],
      ['Alpha Region', 'region', 'pending'],
      ['Charlie Region', 'region', 'suspended'],
      ['Zulu Resale', 'reseller', 'pending'],
      ['Echo Resale', 'reseller', 'approved'],
      ['Echo Resale', 'reseller', 'approved'],
    ] as const) {
      await t.makeOrganization({ name, type, status });
    }
  });
  afterAll(() => t.close());

  it('filters by type, orders by name then id, and counts the filtered set', async () => {
    const regions = await list('?type=region').expect(200);
    expect(regions.body.data.map((o: { name: string }) => o.name)).toEqual([
      'Alpha Region',
      'Bravo Region',
      'Charlie Region',
    ]);
    expect(regions.body.meta).toEqual({ total: 3, current_page: 1, per_page: 25, last_page: 1 });
    const resellers = await list('?type=reseller').expect(200);
    const names = resellers.body.data.map((o: { name: string }) => o.name);
    expect(names).toEqual(['Default organization', 'Echo Resale', 'Echo Resale', 'Zulu Resale']);
    const echoIds = resellers.body.data.slice(1, 3).map((o: { id: string }) => o.id);
    expect(echoIds).toEqual([...echoIds].sort());
    expect(resellers.body.meta.total).toBe(4);
  });

  it('filters by status, alone or with the type', async () => {
    expect((await list('?status=pending').expect(200)).body.meta.total).toBe(2);
    const res = await list('?type=reseller&status=approved').expect(200);
    expect(res.body.meta.total).toBe(3);
  });

  it('answers list items with wire types, without members', async () => {
    const res = await list('?type=region&per_page=1').expect(200);
    expect(res.body.data).toEqual([
      {
        id: expect.any(String),
        name: 'Alpha Region',
        type: 'region',
        status: 'pending',
        description: null,
        contact_email: null,
        commission: '0.00',
        commission_type: 'percent',
        activation_codes_count: 0,
        activation_codes_in_stock_count: 0,
        created_at: expect.stringMatching(ISO_UTC),
      },
    ]);
  });

  it('pages: page 2, per_page capped silently at 100, an empty page past the end', async () => {
    const page2 = await list('?per_page=2&page=2').expect(200);
    expect(page2.body.meta).toEqual({ total: 7, current_page: 2, per_page: 2, last_page: 4 });
    expect(page2.body.data.map((o: { name: string }) => o.name)).toEqual([
      'Charlie Region',
      'Default organization',
    ]);
    const capped = await list('?per_page=1000').expect(200);
    expect(capped.body.meta).toEqual({ total: 7, current_page: 1, per_page: 100, last_page: 1 });
    expect(capped.body.data).toHaveLength(7);
    const past = await list('?page=9').expect(200);
    expect(past.body).toEqual({ data: [], meta: { total: 7, current_page: 9, per_page: 25, last_page: 1 } });
  });

  it.each(['type=partner', 'type=', 'type[]=region', 'status=rejected', 'page=0', 'per_page=abc'])(
    'refuses ?%s with 422',
    async (query) => {
      await list(`?${query}`).expect(422);
    },
  );
});

describe('POST /organizations/signup: throttled per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true', THROTTLE_SIGNUP_LIMIT: '2' } });
  });
  afterAll(() => t.close());

  const signUp = (from: string, body: Record<string, unknown>) =>
    t.http.post('/api/organizations/signup').set('X-Forwarded-For', from).send(body);

  it('answers 429 with Retry-After past the limit, whatever the contact email; other addresses go on', async () => {
    await signUp('203.0.113.1', signupBody()).expect(201);
    // Every call counts, a refused one too.
    await signUp('203.0.113.1', signupBody({ name: undefined })).expect(422);
    const res = await signUp('203.0.113.1', signupBody()).expect(429);
    expect(res.body).toEqual({ message: 'Too many requests.', error: 'too_many_requests' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3000);
    await signUp('203.0.113.2', signupBody()).expect(201);
  });
});

describe('the demo seed (embedded run)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates an approved region and reseller with invited managers, once', async () => {
    const seed = t.app.get(OrganizationsDemoSeed);
    expect(await seed.run()).toEqual([
      { name: 'Valais Region', type: 'region', managerEmail: 'region.manager@example.com' },
      { name: 'Alpine Adventures', type: 'reseller', managerEmail: 'reseller.manager@example.com' },
    ]);
    expect(await seed.run()).toEqual([]);
    const rows = await t.dataSource.query(
      `SELECT o.name, o.type, o.status, u.email, u.password_hash, o.manager_invited_at IS NOT NULL AS invited
         FROM organizations o JOIN memberships m ON m.organization_id = o.id AND m.role = 'manager'
         JOIN users u ON u.id = m.user_id ORDER BY o.name`,
    );
    expect(rows).toEqual([
      {
        name: 'Alpine Adventures',
        type: 'reseller',
        status: 'approved',
        email: 'reseller.manager@example.com',
        password_hash: null,
        invited: true,
      },
      {
        name: 'Valais Region',
        type: 'region',
        status: 'approved',
        email: 'region.manager@example.com',
        password_hash: null,
        invited: true,
      },
    ]);
    const mail = await t.dataSource.query('SELECT template, recipient FROM mail_outbox ORDER BY recipient');
    expect(mail).toEqual([
      { template: 'invitation', recipient: 'region.manager@example.com' },
      { template: 'invitation', recipient: 'reseller.manager@example.com' },
    ]);
  });
});
