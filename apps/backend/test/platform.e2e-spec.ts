import { PlatformProbeController } from './platform-probe.controller';
import { createTestApp, TestApp } from './test-app';

describe('backend platform', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      controllers: [PlatformProbeController],
      env: { CORS_ORIGINS: 'https://office.example.test', BODY_LIMIT_BYTES: '2048' },
    });
  });
  afterAll(() => t.close());

  it('answers GET /api/version with the package version', async () => {
    const res = await t.http.get('/api/version').expect(200);
    expect(res.body).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('serves liveness and readiness outside the /api prefix', async () => {
    await t.http.get('/health/live').expect(200, { status: 'ok', info: {}, error: {}, details: {} });
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.details.database.status).toBe('up');
    await t.http.get('/api/health/ready').expect(404);
  });

  it('answers an unknown route with the 404 envelope', async () => {
    const res = await t.http.get('/api/no-such-route').set('Accept', 'text/html').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ message: 'Not found.', error: 'not_found' });
  });

  it('refuses a bad body with the per-field map and dotted paths', async () => {
    const res = await t.http
      .post('/api/test-probe/echo')
      .send({ name: 'far too long a name', steps: [{ time: '09:30' }, { time: '9h' }], ids: [3, 0] })
      .expect(422);
    expect(res.body.errors).toEqual({
      name: [expect.any(String)],
      'steps.1.time': ['time must be HH:MM.'],
      ids: [expect.any(String)],
    });
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body).not.toHaveProperty('reason');
  });

  it('drops unknown fields instead of refusing them', async () => {
    const res = await t.http
      .post('/api/test-probe/echo')
      .send({ name: 'ok', steps: [], extra: 1 })
      .expect(201);
    expect(res.body).toEqual({ name: 'ok', steps: [] });
  });

  it('answers malformed JSON with 400 malformed_json', async () => {
    const res = await t.http
      .post('/api/test-probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(400);
    expect(res.body).toEqual({ message: expect.any(String), error: 'malformed_json' });
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const res = await t.http
      .post('/api/test-probe/echo')
      .send({ name: 'x'.repeat(4000), steps: [] })
      .expect(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  it('parses bracketed repeated query keys as arrays', async () => {
    const res = await t.http.get('/api/test-probe/query?status[]=used&status[]=in%20stock').expect(200);
    expect(res.body).toEqual({ status: ['used', 'in stock'] });
  });

  it('answers an unexpected error with 500 internal_error, no stack, and a request id', async () => {
    const res = await t.http.get('/api/test-probe/crash').expect(500);
    expect(res.body).toEqual({ message: 'Internal server error.', error: 'internal_error' });
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('echoes a plain X-Request-Id and replaces a forged one', async () => {
    const echoed = await t.http.get('/api/version').set('X-Request-Id', 'client-42').expect(200);
    expect(echoed.headers['x-request-id']).toBe('client-42');
    const replaced = await t.http
      .get('/api/version')
      .set('X-Request-Id', 'bad id with spaces and {braces}')
      .expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers and CORS only for configured origins', async () => {
    const allowed = await t.http.get('/api/version').set('Origin', 'https://office.example.test').expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://office.example.test');
    expect(allowed.headers['x-content-type-options']).toBe('nosniff');
    const other = await t.http.get('/api/version').set('Origin', 'https://evil.example.test').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("sends helmet's security headers and no X-Powered-By", async () => {
    const res = await t.http.get('/api/version').expect(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('refuses a preflight from an origin not listed in CORS_ORIGINS', async () => {
    const preflight = await t.http
      .options('/api/login')
      .set('Origin', 'https://evil.example.test')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('exposes Prometheus metrics with route templates', async () => {
    await t.http.get('/api/version').expect(200);
    const res = await t.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('process_cpu_user_seconds_total');
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/version",status_code="200"\} \d+/,
    );
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} \d+/,
    );
  });
});

describe('backend CORS in the local environment without CORS_ORIGINS (D-79)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CLIENT_APP_URL: 'http://localhost:5173' } });
  });
  afterAll(() => t.close());

  const preflight = (origin: string) =>
    t.http
      .options('/api/login')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');

  it("answers the client app's preflight, without credentials", async () => {
    const res = await preflight('http://localhost:5173').expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('allows no other origin', async () => {
    for (const origin of ['http://localhost:3001', 'http://localhost:5174', 'https://evil.example.test']) {
      expect((await preflight(origin)).headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
