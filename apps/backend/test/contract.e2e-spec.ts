import { readFileSync } from 'node:fs';
import { CONTRACT_SNAPSHOT } from '../src/contract/write-contract';
import { lintOpenApi as lint } from './redocly-lint';
import { createTestApp, TestApp } from './test-app';

type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  security?: unknown[];
  responses: object;
};

describe('GET /contract (local)', () => {
  let t: TestApp;
  let contract: {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, Operation>>;
  };
  beforeAll(async () => {
    t = await createTestApp();
    contract = (
      await t.http
        .get('/api/contract')
        .expect(200)
        .expect('Content-Type', /application\/json/)
    ).body;
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1 for Redocly CLI: no errors', async () => {
    expect(contract.openapi).toBe('3.1.0');
    const report = await lint(contract);
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('matches the committed snapshot (run `pnpm --filter backend contract:update` after a wire change)', () => {
    const snapshot: unknown = JSON.parse(readFileSync(CONTRACT_SNAPSHOT, 'utf8'));
    expect(contract).toEqual(snapshot);
  });

  it('carries the backend version, the one GET /version answers', async () => {
    const version = await t.http.get('/api/version').expect(200);
    expect(contract.info.version).toBe(version.body.version);
  });

  it('keeps no 3.0 constructs', () => {
    const text = JSON.stringify(contract);
    expect(text).not.toContain('"nullable"');
    expect(text).not.toMatch(/"exclusive(Minimum|Maximum)":(true|false)/);
  });

  it('describes the routes, relative to the /api server, without /version and /contract', () => {
    expect(Object.keys(contract.paths).sort()).toEqual([
      '/activation-codes',
      '/activation-codes/batches',
      '/activation-codes/batches/{id}',
      '/activation-codes/claim',
      '/activation-codes/export',
      '/activation-codes/statistics',
      '/activation-codes/status',
      '/activation-codes/{id}',
      '/forgot-password',
      '/images',
      '/login',
      '/logout',
      '/organization',
      '/organization-contact-consent',
      '/organizations',
      '/organizations/default',
      '/organizations/signup',
      '/organizations/{id}',
      '/organizations/{id}/capacity',
      '/organizations/{id}/status',
      '/reset-password',
      '/tags',
      '/tags/{id}',
      '/tour',
      '/tour/activities',
      '/tour/activity',
      '/tour/activity/{activityId}/closures',
      '/tour/activity/{activityId}/closures/{closureId}',
      '/tour/activity/{id}',
      '/tour/provider',
      '/tour/provider/{id}',
      '/tour/providers',
      '/tour/{id}',
      '/tour/{id}/duplicate',
      '/tour/{id}/steps',
      '/tour/{id}/steps/reorder',
      '/tour/{id}/steps/{stepId}',
      '/trips',
      '/trips/{id}',
      '/user',
      '/user/email-change-report',
      '/user/email-confirmation',
    ]);
    expect(contract).toMatchObject({ servers: [{ url: '/api' }] });
  });

  it('marks public operations with an empty security requirement and signed-in ones with the bearer scheme', () => {
    expect(contract.paths['/login'].post.security).toEqual([]);
    expect(contract.paths['/reset-password'].post.security).toEqual([]);
    expect(contract.paths['/user/email-confirmation'].post.security).toEqual([]);
    expect(contract.paths['/user/email-change-report'].post.security).toEqual([]);
    expect(contract.paths['/user'].get.security).toEqual([{ bearer: [] }]);
    expect(contract.paths['/logout'].post.security).toEqual([{ bearer: [] }]);
    expect(contract.paths['/organizations/signup'].post.security).toEqual([]);
    expect(contract.paths['/organization-contact-consent'].post.security).toEqual([]);
    expect(contract.paths['/organizations/default'].get.security).toEqual([{ bearer: [] }]);
    // docs/decisions.md D-22: X-Viewing-As on every signed-in route but /logout, GET|PUT /user and
    // GET /organizations/default; public routes have none.
    const withoutHat = [
      '/forgot-password',
      '/login',
      '/logout',
      '/organization-contact-consent',
      '/organizations/default',
      '/organizations/signup',
      '/reset-password',
      '/user',
      '/user/email-change-report',
      '/user/email-confirmation',
    ];
    for (const [path, item] of Object.entries(contract.paths)) {
      for (const operation of Object.values(item)) {
        const viewingHeader = (operation.parameters ?? []).find((p) => p.name === 'X-Viewing-As');
        const needsHat = !withoutHat.includes(path);
        expect({ path, viewingHeader: viewingHeader?.required }).toEqual({
          path,
          viewingHeader: needsHat ? true : undefined,
        });
        expect(Object.keys(operation.responses).some((status) => status.startsWith('4'))).toBe(true);
      }
    }
  });

  it('serves the interactive page at /api/docs', async () => {
    const res = await t.http.get('/api/docs/').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('swagger-ui');
    // Its scripts load over plain http on localhost: no upgrade-insecure-requests.
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    await t.http.get('/api/docs/swagger-ui-init.js').expect(200);
  });
});

describe('GET /contract outside the local environment', () => {
  const token = 'c'.repeat(40);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        APP_ENV: 'staging',
        CONTRACT_ACCESS_TOKEN: token,
        IMGPROXY_KEY: 'ab'.repeat(32),
        IMGPROXY_SALT: 'cd'.repeat(32),
      },
    });
  });
  afterAll(() => t.close());

  it('needs Authorization: Bearer <CONTRACT_ACCESS_TOKEN>', async () => {
    for (const header of [undefined, `Bearer ${'c'.repeat(39)}`, `Bearer ${token}x`, token]) {
      const req = t.http.get('/api/contract');
      if (header) req.set('Authorization', header);
      const res = await req.expect(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.', error: 'unauthenticated' });
    }
    const res = await t.http.get('/api/contract').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('serves no interactive page', async () => {
    await t.http.get('/api/docs/').expect(404);
  });
});
