import { DOCS_CONTENT_SECURITY_POLICY } from '@rt/platform';
import { sendRawHttp } from '@rt/testing';
import type { Server } from 'node:http';
import { createTestApp, TestApp } from './test-app';

/**
 * The HTTP edge of the search service (docs/architecture.md, "The edge"): every request a client
 * can send gets a 4xx in the envelope, never a 500 and never a bare status line.
 */
describe('search HTTP edge', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WITH_DOCS: 'true' } });
  });
  afterAll(() => t.close());

  const raw = (text: string) => sendRawHttp(t.app.getHttpServer() as Server, text);

  it.each(['search', 'category', 'destination'])('refuses a NUL in %s with 422 naming it', async (name) => {
    const res = await t.http.get(`/travels?${name}=a%00b`).expect(422);
    expect(res.body).toEqual({
      message: `${name} must not contain NUL characters.`,
      errors: { [name]: [`${name} must not contain NUL characters.`] },
    });
  });

  it.each(['search', 'category'])(
    'refuses bytes that are not UTF-8 in %s with 422 naming it',
    async (name) => {
      for (const bytes of ['%FF', 'a%C3%28b']) {
        const res = await t.http.get(`/travels?${name}=${bytes}`).expect(422);
        expect(res.body.errors).toEqual({ [name]: [`${name} must be valid UTF-8 text.`] });
      }
      await t.http.get(`/travels?${name}=Z%C3%BCrich`).expect(200);
    },
  );

  it.each(['dates', 'infoDensity', 'page', 'semanticFloor'])(
    'refuses a NUL in %s with 422 naming it',
    async (name) => {
      const res = await t.http.get(`/travels?${name}=%00`).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([name]);
    },
  );

  it.each(['gzip', 'deflate', 'br'])('answers a body that is not %s-encoded with 400', async (encoding) => {
    const res = await t.http
      .get('/travels')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', encoding)
      .send('{"a":1}')
      .expect(400);
    expect(res.body).toEqual({
      message: 'The request body does not match its Content-Encoding.',
      error: 'bad_request',
    });
  });

  it('answers a JSON body nested 5,000 levels deep, and a deeply bracketed query key, without a 5xx', async () => {
    const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const path of ['/travels', '/reindex', '/']) {
      const res = await t.http.get(path).set('Content-Type', 'application/json').send(deep);
      expect(res.status).toBeLessThan(500);
    }
    const bracketed = await t.http.get(`/travels?search${'[a]'.repeat(2000)}=x`);
    expect(bracketed.status).toBeLessThan(500);
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await t.http.get('/travels').set('Content-Type', 'text/plain').send('hello').expect(415);
    expect(res.body.error).toBe('unsupported_media_type');
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await t.http.post('/travels').expect(405);
    expect(res.body).toEqual({ message: 'Method not allowed.', error: 'method_not_allowed' });
    expect(res.headers.allow).toBe('GET, HEAD');
    await t.http.delete('/nope').expect(404);
  });

  it("answers what Node's parser refuses in the envelope", async () => {
    const badMethod = await raw('G@T /travels HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(badMethod.status).toBe(400);
    expect(JSON.parse(badMethod.body)).toEqual({
      message: 'The request is not valid HTTP.',
      error: 'bad_request',
    });
    const longQuery = await raw(`GET /travels?search=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(longQuery.status).toBe(431);
    expect(JSON.parse(longQuery.body).error).toBe('request_header_fields_too_large');
    expect(longQuery.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the security headers of helmet', async () => {
    const res = await t.http.get('/travels?size=1').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('lets browser code read X-Request-Id, X-Search-Fallback and X-Trace-Id', async () => {
    const res = await t.http.get('/travels?size=1').set('Origin', 'https://app.example.test').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect(res.headers['access-control-expose-headers']).toBe('X-Request-Id,X-Search-Fallback,X-Trace-Id');
  });

  it('serves Redoc from the service itself, under the docs policy', async () => {
    const page = await t.http.get('/redoc').expect(200);
    expect(page.text).toContain('<script src="/redoc/redoc.standalone.js">');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const bundle = await t.http.get('/redoc/redoc.standalone.js').expect(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(Number(bundle.headers['content-length'])).toBeGreaterThan(100_000);
    const swagger = await t.http.get('/docs').redirects(1).expect(200);
    expect(swagger.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
  });
});
