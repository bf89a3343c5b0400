import { Organization } from '../src/organizations/organization.entity';
import { PersonalAccessToken } from '../src/access-tokens/personal-access-token.entity';
import { DEFAULT_ADMIN_EMAIL, UsersService } from '../src/users/users.service';
import { createTestApp, TestApp } from './test-app';

describe('super-admin provisioning and seeded data', () => {
  let t: TestApp;
  let users: UsersService;
  beforeAll(async () => {
    t = await createTestApp();
    users = t.app.get(UsersService);
  });
  afterAll(() => t.close());

  const login = (email: string, password: string) =>
    t.http.post('/api/login').send({ email, password, device_name: 'admin console' });

  it('has exactly one default organization, seeded by the migrations', async () => {
    const defaults = await t.dataSource.getRepository(Organization).findBy({ isDefault: true });
    expect(defaults).toHaveLength(1);
    expect(defaults[0]).toMatchObject({ type: 'reseller', status: 'approved' });
  });

  it('seeds a super-admin with a generated password once (the embedded demo run)', async () => {
    const first = await users.seedSuperAdmin({});
    expect(first).toMatchObject({ email: DEFAULT_ADMIN_EMAIL, outcome: 'created' });
    expect(first.generatedPassword).toMatch(/^[A-Za-z0-9]{24}$/);

    const again = await users.seedSuperAdmin({});
    expect(again).toEqual({ email: DEFAULT_ADMIN_EMAIL, outcome: 'unchanged' });

    const res = await login(DEFAULT_ADMIN_EMAIL, first.generatedPassword!).expect(200);
    expect(res.body.user.is_super_admin).toBe(true);
    await t.http.get('/api/user').set('Authorization', `Bearer ${res.body.token}`).expect(200);
  });

  it('seeds the account of ADMIN_EMAIL/ADMIN_PASSWORD when it is missing, and never changes it after', async () => {
    const seeded = await users.seedSuperAdmin({ email: 'ops@example.com', password: 'given admin password' });
    expect(seeded).toEqual({ email: 'ops@example.com', outcome: 'created', generatedPassword: undefined });
    expect(
      (await users.seedSuperAdmin({ email: 'OPS@example.com', password: 'another one!!' })).outcome,
    ).toBe('unchanged');
    await login('ops@example.com', 'given admin password').expect(200);
  });

  it('user:create-admin resets an existing account to a super-admin and signs it out everywhere', async () => {
    const { user, agent } = await t.signedInUser({ email: 'promote.me@example.com' });
    const result = await users.createOrResetSuperAdmin({
      email: 'Promote.Me@example.com',
      password: 'the new admin password',
    });
    expect(result).toEqual({
      email: 'promote.me@example.com',
      outcome: 'reset',
      generatedPassword: undefined,
    });
    await agent.get('/api/user').expect(401);
    expect(await t.dataSource.getRepository(PersonalAccessToken).countBy({ userId: user.id })).toBe(0);
    const res = await login('promote.me@example.com', 'the new admin password').expect(200);
    expect(res.body.user.is_super_admin).toBe(true);

    const created = await users.createOrResetSuperAdmin({ email: 'fresh.admin@example.com' });
    expect(created.outcome).toBe('created');
    await login('fresh.admin@example.com', created.generatedPassword!).expect(200);
  });
});
