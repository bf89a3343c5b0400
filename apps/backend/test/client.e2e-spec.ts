import {
  createBackendClient,
  isApiError,
  organizationHat,
  type ApiError,
  type BackendClient,
} from '@rt/client';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, rejectionOf } from '@rt/testing';
import sharp from 'sharp';
import { TEST_PASSWORD } from './factories';
import { lintOpenApi } from './redocly-lint';
import { createTestApp, listenForClient, TestApp } from './test-app';

/**
 * The typed client (`@rt/client`, libs/client) against the running backend, over real HTTP: what
 * the mobile and back-office apps do with it.
 */
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** The ApiError a call rejects with. */
const failureOf = (call: Promise<unknown>): Promise<ApiError> => rejectionOf(call, isApiError);

describe('@rt/client against the backend', () => {
  let t: TestApp;
  let imageDir: string;
  let origin: string;
  let baseUrl: string;
  /** Every request the admin client sent (method and URL), to count pages. */
  let sent: string[];
  let admin: BackendClient;
  let adminEmail: string;

  beforeAll(async () => {
    imageDir = await mkdtemp(join(tmpdir(), 'rt-client-images-'));
    t = await createTestApp({ env: { IMAGE_DIR: imageDir } });
    baseUrl = await listenForClient(t);
    origin = new URL(baseUrl).origin;
    adminEmail = (await t.makeUser({ isSuperAdmin: true })).email;
    sent = [];
    admin = createBackendClient({
      baseUrl,
      hat: 'super-admin',
      fetch: (request) => {
        sent.push(`${request.method} ${request.url}`);
        return fetch(request);
      },
    });
    await admin.signIn({ email: adminEmail, password: TEST_PASSWORD, device_name: 'client e2e' });
  });
  afterAll(async () => {
    await t.close();
    await rm(imageDir, { recursive: true, force: true });
  });

  describe('sessions', () => {
    it('signs in, keeps the token and sends it (and the hat) with the next calls', async () => {
      const user = await t.makeUser();
      const tokens: (string | null)[] = [];
      const api = createBackendClient({ baseUrl, onTokenChange: (token) => tokens.push(token) });
      expect(api.token).toBeNull();
      const answer = await api.signIn({ email: user.email, password: TEST_PASSWORD, device_name: 'phone' });
      expect(answer.user).toMatchObject({ id: user.id, email: user.email });
      expect(api.token).toBe(answer.token);
      expect(tokens).toEqual([answer.token]);
      expect(await api.GET('/user')).toMatchObject({ id: user.id, memberships: [] });
      // The traveller hat is held by every signed-in user.
      expect(await api.GET('/trips', { hat: 'traveller' })).toMatchObject({ data: [], meta: { total: 0 } });
    });

    it('signs out: the server revokes the token, the client forgets it', async () => {
      const user = await t.makeUser();
      const api = createBackendClient({ baseUrl });
      const { token } = await api.signIn({
        email: user.email,
        password: TEST_PASSWORD,
        device_name: 'phone',
      });
      expect(await api.signOut()).toEqual({ revoked: true });
      expect(api.token).toBeNull();
      const reused = await failureOf(createBackendClient({ baseUrl, token }).GET('/user'));
      expect(reused).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    });

    it('signs out locally even when the server cannot be reached (docs/backend-api.md)', async () => {
      const tokens: (string | null)[] = [];
      const api = createBackendClient({
        baseUrl: `http://127.0.0.1:${await freePort()}/api`,
        token: 'abc|kept-from-an-earlier-session',
        onTokenChange: (token) => tokens.push(token),
      });
      const result = await api.signOut();
      // fetch failed (connection refused): a TypeError of the fetch implementation
      expect(!result.revoked && (result.error as Error).name).toBe('TypeError');
      expect(api.token).toBeNull();
      expect(tokens).toEqual([null]);
    });

    it('signs out locally when the server refuses the token (401)', async () => {
      const api = createBackendClient({ baseUrl, token: 'abc|not-a-token' });
      const result = await api.signOut();
      expect(result.revoked).toBe(false);
      expect(api.token).toBeNull();
    });
  });

  describe('activation codes', () => {
    let organizationId: string;
    beforeAll(async () => {
      organizationId = (await t.makeOrganization()).id;
      await admin.POST('/activation-codes/batches', {
        body: { organisation_id: organizationId, count: 250 },
      });
    });

    it('walks a list to its end, 100 per page', async () => {
      sent = [];
      const ids: string[] = [];
      for await (const code of admin.paginate('/activation-codes', {
        params: { query: { organisation_id: organizationId } },
      })) {
        expect(code.organisation_id).toBe(organizationId);
        ids.push(code.id);
      }
      expect(ids).toHaveLength(250);
      expect(new Set(ids).size).toBe(250);
      expect(sent).toHaveLength(3);
      expect(sent.map((line) => new URL(line.split(' ')[1]).searchParams.get('per_page'))).toEqual([
        '100',
        '100',
        '100',
      ]);
      expect(sent.map((line) => new URL(line.split(' ')[1]).searchParams.get('page'))).toEqual([
        '1',
        '2',
        '3',
      ]);
    });

    it('sends repeated bracket keys as arrays (status[])', async () => {
      const page = await admin.GET('/activation-codes', {
        params: {
          query: { organisation_id: organizationId, 'status[]': ['in stock', 'purchased'], per_page: 5 },
        },
      });
      expect(page.meta).toMatchObject({ total: 250, per_page: 5, last_page: 50 });
      const none = await admin.GET('/activation-codes', {
        params: { query: { organisation_id: organizationId, 'status[]': ['cancelled'] } },
      });
      expect(none.meta.total).toBe(0);
    });

    it('moves codes in bulk: the moved ones in updated, the others in skipped with a reason', async () => {
      const page = await admin.GET('/activation-codes', {
        params: { query: { organisation_id: organizationId, per_page: 3 } },
      });
      const [first, second, third] = page.data.map((code) => code.id);
      const cancelled = await admin.PUT('/activation-codes/status', {
        body: { ids: [first, second, MISSING_ID], status: 'cancelled' },
      });
      expect(cancelled.updated.map((code) => [code.id, code.status]).sort()).toEqual(
        [
          [first, 'cancelled'],
          [second, 'cancelled'],
        ].sort(),
      );
      expect(cancelled.skipped).toEqual([{ id: MISSING_ID, reason: 'not_found' }]);
      const again = await admin.PUT('/activation-codes/status', {
        body: { ids: [first, third], status: 'cancelled' },
      });
      expect(again.updated.map((code) => code.id)).toEqual([third]);
      expect(again.skipped).toEqual([{ id: first, reason: 'already_cancelled' }]);
    });

    it('streams the CSV export', async () => {
      const csv = await admin.exportCodes({ 'organisation_id[]': [organizationId] });
      let text = '';
      for await (const chunk of csv) text += chunk;
      const lines = text.trimEnd().split(/\r?\n/);
      expect(lines[0]).toBe(
        'full_code,status,organisation_id,organisation_name,batch_number,purchased_at,used_at,expires_at,created_at',
      );
      expect(lines).toHaveLength(251);
      expect(lines.slice(1).every((line) => line.includes(organizationId))).toBe(true);
      const cancelledOnly = await admin.exportCodes({
        'organisation_id[]': [organizationId],
        'status[]': ['cancelled'],
      });
      expect((await cancelledOnly.text()).trimEnd().split(/\r?\n/)).toHaveLength(1 + 3);
    });

    it('reports a refused claim as a 422 with its field map and reason', async () => {
      const [code] = (
        await admin.GET('/activation-codes', {
          params: { query: { organisation_id: organizationId, 'status[]': ['in stock'], per_page: 1 } },
        })
      ).data;
      const traveller = async () => {
        const api = createBackendClient({ baseUrl, hat: 'traveller' });
        await api.signIn({
          email: (await t.makeUser()).email,
          password: TEST_PASSWORD,
          device_name: 'phone',
        });
        return api;
      };
      const [holder, other] = [await traveller(), await traveller()];
      expect(
        await holder.POST('/activation-codes/claim', { body: { full_code: code.full_code } }),
      ).toMatchObject({
        id: code.id,
        status: 'purchased',
      });
      const refused = await failureOf(
        other.POST('/activation-codes/claim', { body: { full_code: code.full_code } }),
      );
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        error: 'validation_failed',
        message: 'This code is already claimed.',
        errors: { full_code: ['This code is already claimed.'] },
        reason: 'already_claimed',
      });
      expect(refused.requestId).toMatch(/\S/);
    });
  });

  describe('images', () => {
    const png = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
        .png()
        .toBuffer();
    const widthOf = async (path: string) => {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(200);
      return (await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width;
    };

    it('uploads a Buffer: the image and its signed variants, which the backend serves', async () => {
      const image = await admin.uploadImage(await png(900, 600), { filename: 'photo.png', hat: 'traveller' });
      expect(image.url).toMatch(new RegExp(`^/img/[A-Za-z0-9_-]{43}/plain/${image.id}\\.png$`));
      expect(Object.keys(image.variants).sort()).toEqual(['full', 'large', 'medium', 'thumb']);
      // Capped at the original width: large and full are the original.
      expect(image.variants.large).toBe(image.url);
      expect(image.variants.full).toBe(image.url);
      expect(await widthOf(image.variants.thumb)).toBe(200);
      expect(await widthOf(image.variants.medium)).toBe(600);
      expect(await widthOf(image.url)).toBe(900);
    });

    it('uploads a Blob (a File in a browser)', async () => {
      const blob = new Blob([new Uint8Array(await png(300, 200))], { type: 'image/png' });
      const image = await admin.uploadImage(blob);
      expect(await widthOf(image.variants.thumb)).toBe(200);
      expect(image.variants.medium).toBe(image.url);
    });

    it('reports content that is not an image as a 422 on `image`', async () => {
      const refused = await failureOf(
        admin.uploadImage(new TextEncoder().encode('not an image'), {
          filename: 'notes.png',
          type: 'image/png',
        }),
      );
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        error: 'validation_failed',
        errors: { image: [expect.any(String)] },
      });
    });
  });

  describe('errors of each envelope shape', () => {
    it('401: no or a bad token → unauthenticated', async () => {
      const error = await failureOf(createBackendClient({ baseUrl }).GET('/user'));
      expect(error.status).toBe(401);
      expect(error.body).toEqual({ error: 'unauthenticated', message: 'Unauthenticated.' });
      expect(error.error).toBe('unauthenticated');
      expect(error.request).toEqual({ method: 'GET', url: `${baseUrl}/user` });
    });

    it('422: wrong credentials on sign-in, under `email`, without a reason', async () => {
      const api = createBackendClient({ baseUrl });
      const error = await failureOf(
        api.signIn({ email: adminEmail, password: 'not the password!', device_name: 'x' }),
      );
      expect(error.status).toBe(422);
      expect(error.body).toEqual({
        error: 'validation_failed',
        message: 'These credentials do not match our records.',
        errors: { email: ['These credentials do not match our records.'] },
      });
      expect(api.token).toBeNull();
    });

    it('422: a missing hat, under `x-viewing-as`', async () => {
      const api = createBackendClient({ baseUrl, token: admin.token });
      const error = await failureOf(api.GET('/organizations'));
      expect(error.status).toBe(422);
      expect(error.is('validation_failed') && Object.keys(error.body.errors)).toEqual(['x-viewing-as']);
    });

    it('403: a hat not held → hat_not_held; the hat can be switched per call', async () => {
      const user = await t.makeUser();
      const organization = await t.makeOrganization();
      const api = createBackendClient({ baseUrl, hat: 'traveller' });
      await api.signIn({ email: user.email, password: TEST_PASSWORD, device_name: 'phone' });
      const notHeld = await failureOf(api.GET('/organization', { hat: organizationHat(organization.id) }));
      expect(notHeld.status).toBe(403);
      expect(notHeld.body).toEqual({
        error: 'hat_not_held',
        message: 'You do not hold this viewing context.',
      });
      await t.addMember(organization, user, 'manager');
      expect(await api.GET('/organization', { hat: organizationHat(organization.id) })).toMatchObject({
        id: organization.id,
      });
      const forbidden = await failureOf(api.GET('/organizations'));
      expect(forbidden).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    });

    it('404: not_found, with the request id the server logged it under', async () => {
      const error = await failureOf(
        admin.GET('/tour/{id}', {
          params: { path: { id: MISSING_ID } },
          headers: { 'X-Request-Id': 'client-e2e-1' },
        }),
      );
      expect(error.status).toBe(404);
      expect(error.body.error).toBe('not_found');
      expect(error.requestId).toBe('client-e2e-1');
    });
  });

  describe('organizations', () => {
    it('walks the organization list to its end across pages', async () => {
      for (let i = 0; i < 105; i += 1) await t.makeOrganization({ type: 'region' });
      const { meta } = await admin.GET('/organizations', {
        params: { query: { type: 'region', per_page: 1 } },
      });
      expect(meta.total).toBeGreaterThan(100);
      const names: string[] = [];
      for await (const organization of admin.paginate('/organizations', {
        params: { query: { type: 'region' } },
      })) {
        expect(organization.type).toBe('region');
        names.push(organization.name);
      }
      expect(names).toHaveLength(meta.total);
      expect(new Set(names).size).toBe(meta.total);
    });
  });
});

describe('the search contract the client is generated from', () => {
  it('is valid OpenAPI 3.1 for Redocly CLI with the backend contract rules: no errors', async () => {
    // apps/search/contract/openapi.json is linted here because @redocly/cli is a devDependency of
    // the backend (the search service's own e2e checks that it is the document it serves).
    const document = JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'search', 'contract', 'openapi.json'), 'utf8'),
    ) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');
    const report = await lintOpenApi(document);
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(
      errors.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`),
    ).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);
});
