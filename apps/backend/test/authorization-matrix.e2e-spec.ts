import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ACCESS_POLICY, type AccessPolicy } from '../src/access/access';
import type { Organization } from '../src/organizations/organization.entity';
import type { User } from '../src/users/user.entity';
import { createTestApp, TestApp, UNTHROTTLED_ENV } from './test-app';

/**
 * The authorization matrix: every route of the backend, read from its own route table,
 * × every kind of caller, each cell asserting the status and error code of the check order of
 * docs/decisions.md D-23: token (401), hat syntax (422 on `x-viewing-as`), hat held (403 `hat_not_held`),
 * organization approved (403 `organization_not_approved`), the route's hat rule (403
 * `forbidden`); a caller who passes them all reaches the handler, whose answer is anything but
 * those. `docs/authorization.md` is written from the same table; the test fails when it differs
 * (UPDATE_AUTHORIZATION_DOC=1 rewrites it).
 */
const DOC_PATH = join(__dirname, '..', '..', '..', 'docs', 'authorization.md');
const API_EXCLUDE_CONTROLLER = 'swagger/apiExcludeController';
const RANDOM_ID = '5b0a2f61-3c9e-4d7a-8f12-6e4b9c0d1a23';

interface Route {
  method: string;
  /** Nest's path, e.g. `/tour/:id`. */
  path: string;
  policy: AccessPolicy;
}

const SCENARIOS = [
  'no token',
  'malformed token',
  'revoked token',
  'expired token',
  'no hat',
  'malformed hat',
  'hat not held',
  'pending organization',
  'suspended organization',
  'approved organization hat',
  'traveller hat',
  'super-admin',
] as const;
type Scenario = (typeof SCENARIOS)[number];

type Expected = { status: number; error?: string; field?: string } | 'reaches the handler';

const UNAUTHENTICATED = { status: 401, error: 'unauthenticated' };
const BAD_HAT = { status: 422, field: 'x-viewing-as' };

/** The documented answer of a cell, from the route's rule alone. */
function expectedOf(policy: AccessPolicy, scenario: Scenario): Expected {
  if (policy.kind === 'public') return 'reaches the handler';
  if (['no token', 'malformed token', 'revoked token', 'expired token'].includes(scenario)) {
    return UNAUTHENTICATED;
  }
  if (policy.kind === 'signed-in') return 'reaches the handler';
  switch (scenario) {
    case 'no hat':
    case 'malformed hat':
      return BAD_HAT;
    case 'hat not held':
      return { status: 403, error: 'hat_not_held' };
    case 'pending organization':
    case 'suspended organization':
      return { status: 403, error: 'organization_not_approved' };
    default: {
      const kind =
        scenario === 'traveller hat'
          ? 'traveller'
          : scenario === 'super-admin'
            ? 'super-admin'
            : 'organization';
      // A super-admin holds every hat but wears the super-admin one here.
      return policy.hats === 'any' || policy.hats.includes(kind)
        ? 'reaches the handler'
        : { status: 403, error: 'forbidden' };
    }
  }
}

const describeExpected = (expected: Expected): string =>
  expected === 'reaches the handler'
    ? 'handler'
    : `${expected.status}${expected.error ? ` \`${expected.error}\`` : ''}${expected.field ? ` (\`${expected.field}\`)` : ''}`;

const ruleOf = (policy: AccessPolicy): string =>
  policy.kind === 'hat'
    ? policy.hats === 'any'
      ? 'any hat held'
      : policy.hats.map((kind) => (kind === 'organization' ? 'organization:<id>' : kind)).join(', ')
    : policy.kind;

/** The routes of the contract, from Nest's own metadata (the AccessPolicyAudit reads the same). */
function routesOf(t: TestApp): Route[] {
  const discovery = t.app.get(DiscoveryService);
  const scanner = t.app.get(MetadataScanner);
  const routes: Route[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Function | null;
    if (!controller || Reflect.getMetadata(API_EXCLUDE_CONTROLLER, controller)?.[0] === true) continue;
    const base = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat()[0] ?? '';
    const prototype = controller.prototype as Record<string, Function>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const own = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (own === undefined) continue;
      const policy = (Reflect.getMetadata(ACCESS_POLICY, handler) ??
        Reflect.getMetadata(ACCESS_POLICY, controller)) as AccessPolicy | undefined;
      if (!policy) throw new Error(`${controller.name}.${name} declares no access rule`);
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const path = `/${[base, [own].flat()[0]].filter((part) => part && part !== '/').join('/')}`.replace(
        /\/+/g,
        '/',
      );
      routes.push({ method, path, policy });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

describe('authorization matrix: every route × every kind of caller', () => {
  let t: TestApp;
  let routes: Route[];
  let member: User;
  let organizations: Record<'pending' | 'suspended' | 'approved', Organization>;
  let superAdmin: User;

  beforeAll(async () => {
    t = await createTestApp({
      // Each public route is called once per scenario from one address.
      env: UNTHROTTLED_ENV,
    });
    routes = routesOf(t);
    member = await t.makeUser();
    organizations = {
      pending: await t.makeOrganization({ status: 'pending' }),
      suspended: await t.makeOrganization({ status: 'suspended' }),
      approved: await t.makeOrganization({ status: 'approved' }),
    };
    for (const organization of Object.values(organizations))
      await t.addMember(organization, member, 'manager');
    superAdmin = await t.makeUser({ isSuperAdmin: true });
  });
  afterAll(() => t.close());

  /** Authorization and hat of a scenario; every call gets a fresh token (a handler may revoke it). */
  async function credentialsOf(scenario: Scenario): Promise<{ token?: string; hat?: string }> {
    switch (scenario) {
      case 'no token':
        return { hat: 'super-admin' };
      case 'malformed token':
        return { token: 'not-a-token', hat: 'super-admin' };
      case 'revoked token': {
        const { token } = await t.signIn(superAdmin);
        await t.dataSource.query('DELETE FROM personal_access_tokens WHERE id = $1', [token.split('|')[0]]);
        return { token, hat: 'super-admin' };
      }
      case 'expired token': {
        const { token } = await t.signIn(superAdmin);
        await t.dataSource.query(
          `UPDATE personal_access_tokens SET created_at = now() - interval '400 days', last_used_at = now() - interval '400 days' WHERE id = $1`,
          [token.split('|')[0]],
        );
        return { token, hat: 'super-admin' };
      }
      case 'no hat':
        return { token: (await t.signIn(member)).token };
      case 'malformed hat':
        return { token: (await t.signIn(member)).token, hat: 'organisation:42' };
      case 'hat not held':
        return { token: (await t.signIn(member)).token, hat: `organization:${RANDOM_ID}` };
      case 'pending organization':
      case 'suspended organization':
      case 'approved organization hat': {
        const organization = organizations[scenario.split(' ')[0] as 'pending' | 'suspended' | 'approved'];
        return { token: (await t.signIn(member)).token, hat: `organization:${organization.id}` };
      }
      case 'traveller hat':
        return { token: (await t.signIn(member)).token, hat: 'traveller' };
      case 'super-admin':
        return { token: (await t.signIn(superAdmin)).token, hat: 'super-admin' };
    }
  }

  it('covers every operation of the contract, each with a declared rule', async () => {
    const contract = (await t.http.get('/api/contract').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(contract.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const fromRoutes = routes
      .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`)
      .sort();
    expect(fromRoutes).toEqual(documented);
  });

  it('answers every cell as documented, and writes docs/authorization.md from the same table', async () => {
    const failures: string[] = [];
    const rows: string[] = [];
    for (const route of routes) {
      const url = `/api${route.path.replace(/:[A-Za-z]+/g, RANDOM_ID)}`;
      const cells: string[] = [];
      for (const scenario of SCENARIOS) {
        const expected = expectedOf(route.policy, scenario);
        const { token, hat } = await credentialsOf(scenario);
        let call = t.http[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url);
        if (token) call = call.set('Authorization', `Bearer ${token}`);
        if (hat) call = call.set('X-Viewing-As', hat);
        if (['POST', 'PUT', 'PATCH'].includes(route.method)) call = call.send({});
        const res = await call;
        const where = `${route.method} ${route.path} × ${scenario}`;
        if (res.status >= 500) failures.push(`${where}: ${res.status}`);
        if (expected === 'reaches the handler') {
          const stoppedByAccess =
            res.status === 401 ||
            (res.status === 403 &&
              ['hat_not_held', 'organization_not_approved', 'forbidden'].includes(res.body?.error)) ||
            (res.status === 422 && res.body?.errors?.['x-viewing-as'] !== undefined);
          if (stoppedByAccess)
            failures.push(`${where}: expected the handler, got ${res.status} ${JSON.stringify(res.body)}`);
        } else {
          const matches =
            res.status === expected.status &&
            (expected.error === undefined || res.body?.error === expected.error) &&
            (expected.field === undefined || res.body?.errors?.[expected.field] !== undefined);
          if (!matches)
            failures.push(
              `${where}: expected ${describeExpected(expected)}, got ${res.status} ${JSON.stringify(res.body)}`,
            );
        }
        cells.push(describeExpected(expected));
      }
      rows.push(`| \`${route.method} ${route.path}\` | ${ruleOf(route.policy)} | ${cells.join(' | ')} |`);
    }
    expect(failures).toEqual([]);

    const doc = [
      '# Authorization matrix (backend)',
      '',
      "Generated by `apps/backend/test/authorization-matrix.e2e-spec.ts` from the backend's own route table",
      '(`UPDATE_AUTHORIZATION_DOC=1` rewrites it; the test fails when this file and the routes differ).',
      'Each cell is what the test asserts for that route and caller, in the check order of D-23 in',
      '`docs/decisions.md`: token (401), hat syntax (422 on `x-viewing-as`), hat held (403',
      "`hat_not_held`), organization approved (403 `organization_not_approved`), the route's hat rule (403",
      '`forbidden`). "handler": the caller passes every check and the route answers on its own (2xx, 404,',
      '422 on the body…), never with one of those. Path ids are a random UUID; bodies are `{}`.',
      '',
      'Callers: a super-admin token with the `super-admin` hat for the four token cases; a member',
      '(manager) of a pending, a suspended and an approved organization for the hat cases; the',
      'malformed hat is `organisation:42`; the hat not held names an organization the caller is not in.',
      '',
      'What a member of a pending or a suspended organization may still do: under that',
      "organization's hat, nothing (403 `organization_not_approved` on every route with a hat, the two",
      'columns below). The same account keeps what needs no hat (the public routes, `POST /logout`, `GET`',
      'and `PUT /user`, `GET /organizations/default`), the `traveller` hat every signed-in user holds',
      '(claims, trips, images, tags: the traveller hat column) and the hats of its other, approved',
      'organizations. It needs a sign-in for all but the public routes: the contact of a public signup',
      'that has no password gets none until a super-admin approves the organization (no reset email, no',
      'reset token works: D-69 in `docs/decisions.md`); the approval invites it, and a suspension after',
      'that leaves its account as it is.',
      '',
      `| Route | Rule | ${SCENARIOS.join(' | ')} |`,
      `|---|---|${SCENARIOS.map(() => '---').join('|')}|`,
      ...rows,
      '',
    ].join('\n');
    if (process.env.UPDATE_AUTHORIZATION_DOC === '1') await writeFile(DOC_PATH, doc);
    expect(await readFile(DOC_PATH, 'utf8').catch(() => '')).toBe(doc);
  });

  it('keeps the expected answers in the documented order (pure)', () => {
    const superAdminOnly: AccessPolicy = { kind: 'hat', hats: ['super-admin'] };
    expect(expectedOf(superAdminOnly, 'expired token')).toEqual(UNAUTHENTICATED);
    expect(expectedOf(superAdminOnly, 'malformed hat')).toEqual(BAD_HAT);
    expect(expectedOf(superAdminOnly, 'approved organization hat')).toEqual({
      status: 403,
      error: 'forbidden',
    });
    expect(expectedOf({ kind: 'hat', hats: 'any' }, 'traveller hat')).toBe('reaches the handler');
    expect(expectedOf({ kind: 'signed-in' }, 'malformed hat')).toBe('reaches the handler');
    expect(expectedOf({ kind: 'public' }, 'no token')).toBe('reaches the handler');
  });
});
