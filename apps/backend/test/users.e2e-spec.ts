import { TEST_PASSWORD } from './factories';
import { createTestApp, TestApp } from './test-app';

describe('GET /user, PUT /user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const replacement = (overrides: Record<string, unknown> = {}) => ({
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace.hopper@example.com',
    preferred_language: 'fr-ch',
    profile_picture_id: null,
    // Needed whenever the email changes (docs/decisions.md D-70); ignored otherwise.
    current_password: TEST_PASSWORD,
    ...overrides,
  });

  it('answers the signed-in user without X-Viewing-As, with memberships', async () => {
    const { agent, user } = await t.signedInUser();
    const region = await t.makeOrganization({ name: 'Valais', type: 'region', status: 'pending' });
    await t.addMember(region, user, 'member');
    const res = await agent.get('/api/user').expect(200);
    expect(res.body).toMatchObject({
      id: user.id,
      email: user.email,
      is_super_admin: false,
      profile_picture: null,
    });
    expect(res.body.memberships).toEqual([
      { organization: { id: region.id, name: 'Valais', type: 'region', status: 'pending' }, role: 'member' },
    ]);
  });

  it('replaces the user and answers the stored user; a new email waits for its confirmation', async () => {
    const { agent, user } = await t.signedInUser();
    const res = await agent
      .put('/api/user')
      .send(replacement({ email: `Grace-${user.id}@Example.com` }))
      .expect(200);
    expect(res.body).toMatchObject({
      id: user.id,
      first_name: 'Grace',
      last_name: 'Hopper',
      email: user.email,
      pending_email: `Grace-${user.id}@Example.com`,
      preferred_language: 'fr-ch',
      profile_picture_id: null,
      profile_picture: null,
    });
    const again = await agent.get('/api/user').expect(200);
    expect(again.body).toEqual(res.body);
  });

  it('keeps emails unique case-insensitively (422 on email), and accepts the own email in another case', async () => {
    const taken = await t.makeUser({ email: 'taken@example.com' });
    const { agent, user } = await t.signedInUser();
    const res = await agent
      .put('/api/user')
      .send(replacement({ email: 'TAKEN@example.com' }))
      .expect(422);
    expect(res.body.errors).toEqual({ email: ['The email has already been taken.'] });
    expect(taken.email).toBe('taken@example.com');
    await agent
      .put('/api/user')
      .send(replacement({ email: user.email.toUpperCase() }))
      .expect(200);
  });

  it('refuses a partial body: every field of the full replacement is required', async () => {
    const { agent } = await t.signedInUser();
    const res = await agent.put('/api/user').send({ first_name: 'Only' }).expect(422);
    expect(res.body.errors).toEqual({
      last_name: ['The last name field is required.'],
      email: ['The email field is required.'],
      preferred_language: ['The preferred language field is required.'],
      profile_picture_id: ['The profile picture id field is required.'],
    });
  });

  it.each([
    ['first_name', '', 'The first name field is required.'],
    ['last_name', 'x'.repeat(256), 'The last name field must not be greater than 255 characters.'],
    ['email', 'grace@', 'The email field must be a valid email address.'],
    ['preferred_language', 'de-de', 'The preferred language field must be one of: fr-ch, ge-ch, en-gb.'],
    [
      'profile_picture_id',
      '6f1c1f8e-3f4a-4a57-9d3c-2b1e0f9a8c7d',
      'The selected profile picture id is invalid.',
    ],
    ['profile_picture_id', 'not-a-uuid', 'The profile picture id field must be a valid UUID.'],
  ])('refuses a bad %s with 422 on that field', async (field, value, message) => {
    const { agent } = await t.signedInUser();
    const res = await agent
      .put('/api/user')
      .send(replacement({ email: `ok-${field}@example.com`, [field]: value }))
      .expect(422);
    expect(res.body.errors).toEqual({ [field]: [message] });
  });

  it('refuses a first name with a line break (422 on first_name)', async () => {
    const { agent, user } = await t.signedInUser();
    const res = await agent
      .put('/api/user')
      .send(replacement({ email: user.email, first_name: 'A\r\nB' }))
      .expect(422);
    expect(res.body.errors).toEqual({
      first_name: ['The first name field must be a single line: no line breaks or control characters.'],
    });
  });

  it('takes back a stored name that is no single line unchanged, and refuses another one', async () => {
    const { agent, user } = await t.signedInUser();
    // Written before names had to be single lines (docs/decisions.md D-74).
    await t.dataSource.query('UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1', [
      user.id,
      'Old\r\nName',
      'Old\u2028Last',
    ]);
    const kept = replacement({ email: user.email, first_name: 'Old\r\nName', last_name: 'Old\u2028Last' });
    const res = await agent.put('/api/user').send(kept).expect(200);
    expect(res.body).toMatchObject({ first_name: 'Old\r\nName', preferred_language: 'fr-ch' });
    const changed = await agent
      .put('/api/user')
      .send({ ...kept, last_name: 'Other\u2028Last' })
      .expect(422);
    expect(Object.keys(changed.body.errors)).toEqual(['last_name']);
    await agent
      .put('/api/user')
      .send({ ...kept, first_name: 'Fixed' })
      .expect(200);
  });

  it('ignores fields that are not part of the resource (is_super_admin cannot be raised)', async () => {
    const { agent, user } = await t.signedInUser();
    const res = await agent
      .put('/api/user')
      .send(replacement({ email: `self-${user.id}@example.com`, is_super_admin: true, id: 'x' }))
      .expect(200);
    expect(res.body).toMatchObject({ id: user.id, is_super_admin: false });
  });

  it('needs a token', async () => {
    await t.http.get('/api/user').expect(401);
    await t.http.put('/api/user').send(replacement()).expect(401);
  });
});
