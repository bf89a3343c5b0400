import { ErrorCode } from '@rt/errors';
import { createBackendClient } from './backend';
import { ApiError, ERROR_CODES, isApiError, retryAfterSeconds } from './errors';
import { createSearchClient } from './search';

/** A fetch that answers from `answer` and records every request. */
function fakeFetch(answer: (request: Request) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return answer(request);
  };
  return { fetch, requests };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(error)) throw new Error(`Expected an ApiError, got ${String(error)}`);
  return error;
}

describe('error codes', () => {
  it('lists every code of the shared envelope (libs/errors), validation_failed being the 422 body', () => {
    expect([...ERROR_CODES, 'validation_failed'].sort()).toEqual(Object.values(ErrorCode).sort());
  });
});

describe('createBackendClient', () => {
  it('sends the token, the client hat or the call hat, and Accept: application/json', async () => {
    const { fetch, requests } = fakeFetch(() => json(200, { data: [], meta: { last_page: 1 } }));
    const api = createBackendClient({
      baseUrl: 'http://backend.test/api/',
      token: 't|1',
      hat: 'traveller',
      fetch,
    });
    await api.GET('/trips');
    await api.GET('/organizations', { hat: 'super-admin', params: { query: { type: 'region' } } });
    api.setHat(null);
    await api.GET('/user');
    expect(
      requests.map((r) => [r.url, r.headers.get('Authorization'), r.headers.get('X-Viewing-As')]),
    ).toEqual([
      ['http://backend.test/api/trips', 'Bearer t|1', 'traveller'],
      ['http://backend.test/api/organizations?type=region', 'Bearer t|1', 'super-admin'],
      ['http://backend.test/api/user', 'Bearer t|1', null],
    ]);
    expect(requests[0].headers.get('Accept')).toBe('application/json');
  });

  it('turns each envelope into an ApiError with its status and request id', async () => {
    const answers = [
      json(
        422,
        { message: 'Bad.', errors: { full_code: ['Bad.'] }, reason: 'already_claimed' },
        { 'X-Request-Id': 'r1' },
      ),
      json(422, { message: 'Bad token.', errors: { token: ['Bad token.'] }, error: 'invalid_reset_token' }),
      json(403, { message: 'No.', error: 'hat_not_held' }),
      new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
      new Response(null, { status: 500 }),
      json(503, { message: 'Down.', error: 'service_unavailable' }, { 'Retry-After': '5' }),
    ];
    const { fetch } = fakeFetch(() => answers.shift() as Response);
    const api = createBackendClient({ baseUrl: 'http://backend.test/api', fetch });
    const claim = () => api.POST('/activation-codes/claim', { body: { full_code: 'x' } });
    expect(await failureOf(claim())).toMatchObject({
      status: 422,
      requestId: 'r1',
      body: {
        error: 'validation_failed',
        message: 'Bad.',
        errors: { full_code: ['Bad.'] },
        reason: 'already_claimed',
      },
    });
    expect((await failureOf(claim())).body).toEqual({
      error: 'invalid_reset_token',
      message: 'Bad token.',
      errors: { token: ['Bad token.'] },
    });
    const notHeld = await failureOf(claim());
    expect(notHeld).toMatchObject({
      status: 403,
      requestId: null,
      body: { error: 'hat_not_held', message: 'No.' },
    });
    expect(notHeld.is('hat_not_held', 'forbidden')).toBe(true);
    expect(notHeld.is('forbidden')).toBe(false);
    expect(notHeld.message).toBe(
      'POST http://backend.test/api/activation-codes/claim → 403 hat_not_held: No.',
    );
    expect((await failureOf(claim())).body).toEqual({
      error: 'unexpected_response',
      message: 'HTTP 502 without the error envelope.',
      text: '<html>Bad gateway</html>',
    });
    expect((await failureOf(claim())).body).toMatchObject({ error: 'unexpected_response', text: '' });
    const unavailable = await failureOf(claim());
    expect(unavailable).toMatchObject({ status: 503, retryAfter: 5, body: { error: 'service_unavailable' } });
    expect(notHeld.retryAfter).toBeNull();
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Wed, 25 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Wed, 25 Nov 2026 11:59:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });

  it('signs in and keeps the token; signs out clearing it even when the call fails', async () => {
    const answers: (() => Response)[] = [
      () => json(200, { token: 'abc|secret', user: { id: 'u1' } }),
      () => {
        throw new TypeError('fetch failed');
      },
      () => json(200, { token: 'def|secret', user: { id: 'u1' } }),
      () => json(500, { message: 'Internal server error.', error: 'internal_error' }),
      () => json(200, { token: 'ghi|secret', user: { id: 'u1' } }),
      () => new Response(null, { status: 204 }),
    ];
    const { fetch, requests } = fakeFetch(() => (answers.shift() as () => Response)());
    const changes: (string | null)[] = [];
    const api = createBackendClient({
      baseUrl: 'http://backend.test/api',
      fetch,
      onTokenChange: (t) => changes.push(t),
    });
    const credentials = { email: 'a@example.com', password: 'correct horse battery', device_name: 'phone' };

    await api.signIn(credentials);
    expect(api.token).toBe('abc|secret');
    const offline = await api.signOut();
    expect(offline).toEqual({ revoked: false, error: new TypeError('fetch failed') });
    expect(api.token).toBeNull();

    await api.signIn(credentials);
    const failed = await api.signOut();
    expect(!failed.revoked && isApiError(failed.error, 'internal_error')).toBe(true);
    expect(api.token).toBeNull();

    await api.signIn(credentials);
    expect(await api.signOut()).toEqual({ revoked: true });
    expect(api.token).toBeNull();
    expect(requests[5].headers.get('Authorization')).toBe('Bearer ghi|secret');
    expect(changes).toEqual(['abc|secret', null, 'def|secret', null, 'ghi|secret', null]);
    // Signed out already: nothing to revoke, nothing sent.
    expect((await api.signOut()).revoked).toBe(false);
    expect(requests).toHaveLength(6);
  });

  it('walks every page, 100 per page, until last_page', async () => {
    const { fetch, requests } = fakeFetch((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      const data = page < 3 ? [`${page}a`, `${page}b`] : [`${page}a`];
      return json(200, { data, meta: { total: 5, current_page: page, per_page: 100, last_page: 3 } });
    });
    const api = createBackendClient({ baseUrl: 'http://backend.test/api', hat: 'super-admin', fetch });
    const items: unknown[] = [];
    for await (const tag of api.paginate('/tags', { params: { query: { type: 'theme' } } })) items.push(tag);
    expect(items).toEqual(['1a', '1b', '2a', '2b', '3a']);
    expect(requests.map((r) => new URL(r.url).search)).toEqual([
      '?type=theme&page=1&per_page=100',
      '?type=theme&page=2&per_page=100',
      '?type=theme&page=3&per_page=100',
    ]);
  });

  it('streams a text answer, a character split across chunks included', async () => {
    const bytes = new TextEncoder().encode('full_code,organisation_name\nABCD-EFGH-JKLM,Zürich Tours\n');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "ü"
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    const { fetch, requests } = fakeFetch(
      () => new Response(body, { headers: { 'Content-Type': 'text/csv' } }),
    );
    const api = createBackendClient({ baseUrl: 'http://backend.test/api', hat: 'super-admin', fetch });
    const csv = await api.exportCodes({ 'status[]': ['in stock', 'purchased'] });
    expect(await csv.text()).toBe('full_code,organisation_name\nABCD-EFGH-JKLM,Zürich Tours\n');
    expect(new URL(requests[0].url).searchParams.getAll('status[]')).toEqual(['in stock', 'purchased']);
    expect(requests[0].headers.get('Accept')).toBe('text/csv');
  });

  it('uploads bytes as the multipart field `image`', async () => {
    const { fetch, requests } = fakeFetch(() => json(201, { id: 'i1', url: '/img/x', variants: {} }));
    const api = createBackendClient({ baseUrl: 'http://backend.test/api', hat: 'traveller', fetch });
    await api.uploadImage(new Uint8Array([1, 2, 3]), { filename: 'a.png', type: 'image/png' });
    const form = await requests[0].formData();
    const file = form.get('image') as File;
    expect(file.name).toBe('a.png');
    expect(file.type).toBe('image/png');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(requests[0].headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
  });
});

describe('createSearchClient', () => {
  it('reports the full-text fallback header', async () => {
    const listing = { totalRecords: 0, totalFilteredRecords: 0, page: 1, records: [] };
    const { fetch, requests } = fakeFetch(() => json(200, listing, { 'X-Search-Fallback': 'fulltext' }));
    const search = createSearchClient({ baseUrl: 'http://search.test', fetch });
    expect(await search.travels({ search: 'lake', infoDensity: 'min' })).toEqual({
      ...listing,
      fallback: true,
    });
    expect(requests[0].url).toBe('http://search.test/travels?search=lake&infoDensity=min');
  });
});
