import { createBackendClient, isApiError, type ApiError, type BackendClient } from '@rt/client';
import { runMigrateCommand, urlOfDatabase, withClient } from '@rt/database';
import { onEmbeddedDatabase, rejectionOf, temporaryFolder, testServerUrl } from '@rt/testing';
import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { renameAccount } from '../src/cli/email-collisions';
import { BACKEND_EXTENSIONS } from '../src/database/extensions';
import { backendMigrations } from '../src/database/migrations';
import { EmailCanonical1796100000000 } from '../src/database/migrations/1796100000000-EmailCanonical';
import { UsersRepository } from '../src/users/users.repository';
import { signUpBody, TEST_PASSWORD, unique } from './factories';
import { createTestApp, listenForClient, TestApp, UNTHROTTLED_ENV } from './test-app';

/**
 * One canonical form per address (docs/decisions.md D-77): accounts are found and kept unique by
 * it, never by PostgreSQL's lower(); invisible characters and domains mixing scripts name no
 * account.
 */
const failureOf = (call: Promise<unknown>): Promise<ApiError> => rejectionOf(call, isApiError);

describe('addresses in their canonical form', () => {
  let t: TestApp;
  let baseUrl: string;
  let anonymous: BackendClient;
  let admin: BackendClient;

  beforeAll(async () => {
    t = await createTestApp({ env: UNTHROTTLED_ENV });
    baseUrl = await listenForClient(t);
    anonymous = createBackendClient({ baseUrl });
    admin = createBackendClient({ baseUrl, hat: 'super-admin' });
    const adminUser = await t.makeUser({ isSuperAdmin: true });
    await admin.signIn({ email: adminUser.email, password: TEST_PASSWORD, device_name: 'addresses e2e' });
  });
  afterAll(() => t.close());

  const signUp = (contactEmail: string) =>
    anonymous.POST('/organizations/signup', { body: signUpBody(contactEmail) });
  /** The manager of a new organization, as a super-admin creates it. */
  const createWithManager = async (managerEmail: string) => {
    const organization = await admin.POST('/organizations', {
      body: {
        name: `Alps ${unique()}`,
        type: 'reseller',
        manager_email: managerEmail,
        manager_first_name: 'Ada',
        manager_last_name: 'Lovelace',
        preferred_language: 'en-gb',
      },
    });
    return organization.members[0];
  };
  /** The account a signup named as its contact. */
  const contactOf = async (email: string) => (await t.app.get(UsersRepository).findByEmail(email))!;

  it('keeps a dotted İ apart from i: a squatter of İnfo@ does not get the invitation of info@', async () => {
    const name = `nfo-${unique()}@example.com`;
    await signUp(`İ${name}`);
    const squatter = await contactOf(`İ${name}`);

    const real = await createWithManager(`i${name}`);
    expect(real.email).toBe(`i${name}`);
    expect(real.id).not.toBe(squatter.id);
    await t.deliverMail();
    expect(t.mail.to(`i${name}`).map((message) => message.template)).toEqual(['invitation']);
    expect(t.mail.to(`İ${name}`)).toEqual([]);
  });

  it('gives the Kelvin sign and k one account, and a Unicode and a punycode domain one', async () => {
    const kelvin = `\u212Aim-${unique()}@example.com`;
    await signUp(kelvin);
    const first = await contactOf(kelvin);
    expect((await createWithManager(kelvin.replace('\u212A', 'k'))).id).toBe(first.id);

    const local = `info-${unique()}`;
    await signUp(`${local}@bücher.de`);
    const unicode = await contactOf(`${local}@bücher.de`);
    expect((await createWithManager(`${local}@XN--BCHER-KVA.de`)).id).toBe(unicode.id);
  });

  it('signs in with any spelling of the address: case, punycode', async () => {
    const user = await t.makeUser({ email: `Ada-${unique()}@Bücher.de` });
    const spelled = user.email.toLowerCase().replace('bücher', 'xn--bcher-kva');
    const signedIn = await createBackendClient({ baseUrl }).signIn({
      email: spelled,
      password: TEST_PASSWORD,
      device_name: 'phone',
    });
    expect(signedIn.user.id).toBe(user.id);
  });

  it('finds a row the previous release wrote during a rollout (no canonical form) by its exact address', async () => {
    const user = await t.makeUser({ email: `Rollout-${unique()}@example.com` });
    // What the previous release's insert leaves: it never writes the column.
    await t.dataSource.query(`UPDATE users SET email_canonical = NULL WHERE id = $1`, [user.id]);
    const users = t.app.get(UsersRepository);
    expect((await users.findByEmail(user.email))?.id).toBe(user.id);
    expect(await users.emailUsedByAnother(user.email, '00000000-0000-4000-8000-000000000000')).toBe(true);
  });

  it.each([
    ['a zero-width space', (name: string) => `in\u200Bfo-${name}@example.com`, 'email_invisible_character'],
    ['a bidi override', (name: string) => `info-${name}\u202E@example.com`, 'email_invisible_character'],
    [
      'a leading byte order mark',
      (name: string) => `\uFEFFinfo-${name}@example.com`,
      'email_invisible_character',
    ],
    [
      'a Cyrillic е in a Latin domain',
      (name: string) => `info-${name}@\u0435xample.com`,
      'email_mixed_script_domain',
    ],
  ])('refuses an address with %s, at signup and invitation', async (_, address, reason) => {
    for (const [call, field] of [
      [() => signUp(address(unique())), 'contact_email'],
      [() => createWithManager(address(unique())), 'manager_email'],
    ] as const) {
      const error = await failureOf(call());
      expect(error.status).toBe(422);
      expect(error.body).toMatchObject({ reason, errors: { [field]: [expect.any(String)] } });
    }
  });
});

describe('the migration to canonical addresses', () => {
  const folder = temporaryFolder('rt-backend-canonical-');
  const server = testServerUrl();
  // Named like the test files' copies, so a run that died leaves nothing the next one keeps.
  const name = `rt_test_backend_${process.env.RT_TEST_RUN_ID ?? 'local'}_${randomBytes(6).toString('hex')}`;
  /** An empty database of its own: on the test server when there is one (fast), else embedded. */
  const database = (): { url?: string; dataDir: string; extensions: typeof BACKEND_EXTENSIONS } => ({
    url: server ? urlOfDatabase(server, name) : undefined,
    dataDir: folder.path,
    extensions: BACKEND_EXTENSIONS,
  });
  const migrate = (migrations: Function[]) =>
    runMigrateCommand({ app: 'backend', ...database(), migrations });
  const on = <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const opened = database();
    return opened.url ? withClient(opened.url, work) : onEmbeddedDatabase(opened, work);
  };
  const before = backendMigrations.slice(0, backendMigrations.indexOf(EmailCanonical1796100000000));

  beforeAll(async () => {
    if (server) await withClient(server, (admin) => admin.query(`CREATE DATABASE ${name}`));
  });
  afterAll(async () => {
    if (server)
      await withClient(server, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });

  it('fails on two accounts of one canonical address, naming the command; passes once one is renamed', async () => {
    await migrate(before);
    const ids = await on(async (client) => {
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO users (email, first_name, last_name, preferred_language)
         VALUES ('info@bücher.de', 'A', 'A', 'en-gb'), ('info@xn--bcher-kva.de', 'B', 'B', 'en-gb'),
                ('in\u200Bfo@example.com', 'C', 'C', 'en-gb')
         RETURNING id`,
      );
      return inserted.rows.map((row) => row.id);
    });

    const failure = await rejectionOf(
      migrate(backendMigrations),
      (error): error is Error => error instanceof Error,
    );
    expect(failure.message).toMatch(new RegExp(`users (${ids[0]} = ${ids[1]}|${ids[1]} = ${ids[0]})\\)`));
    expect(failure.message).toContain('pnpm --filter backend user:email-collisions');

    await on((client) => renameAccount(client, ids[1], 'info@example.org'));
    await migrate(backendMigrations);
    const stored = await on(
      async (client) =>
        (await client.query(`SELECT email, email_canonical FROM users ORDER BY created_at, id`)).rows,
    );
    expect(stored).toEqual(
      expect.arrayContaining([
        { email: 'info@bücher.de', email_canonical: 'info@xn--bcher-kva.de' },
        { email: 'info@example.org', email_canonical: 'info@example.org' },
        // Refused today, kept usable: its own form, never the plain address's.
        { email: 'in\u200Bfo@example.com', email_canonical: 'in\u200Bfo@example.com' },
      ]),
    );
  }, 120_000);
});
