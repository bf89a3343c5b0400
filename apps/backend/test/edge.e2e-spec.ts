import { sendRawHttp } from '@rt/testing';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { PlatformProbeController } from './platform-probe.controller';
import { createTestApp, TestApp } from './test-app';

/**
 * The HTTP edge (docs/architecture.md, "The edge"): every request a client can send gets a 4xx
 * in the envelope, never a 500 and never a bare status line.
 */
describe('backend HTTP edge', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ controllers: [PlatformProbeController] });
  });
  afterAll(() => t.close());

  const json = (path: string, text: string) =>
    t.http.post(path).set('Content-Type', 'application/json').send(text);

  describe('text no database can store', () => {
    it.each(['/api/login', '/api/forgot-password', '/api/reset-password'])(
      'refuses an email with an unpaired surrogate on %s with 422 on email',
      async (path) => {
        const res = await json(
          path,
          '{"email":"u\\ud800@example.com","password":"long enough password","device_name":"d","token":"x"}',
        ).expect(422);
        expect(res.body.errors.email).toEqual([expect.stringContaining('valid Unicode')]);
      },
    );

    it('refuses a NUL in device_name on POST /login with 422 naming the field', async () => {
      const user = await t.makeUser();
      const res = await t.http
        .post('/api/login')
        .send({ email: user.email, password: 'correct horse battery staple', device_name: 'phone\u0000' })
        .expect(422);
      expect(res.body).toEqual({
        message: 'The device name field must not contain NUL characters.',
        errors: { device_name: ['The device name field must not contain NUL characters.'] },
      });
    });

    it('refuses a NUL in first_name on PUT /user, and changes nothing', async () => {
      const { agent, user } = await t.signedInUser();
      const res = await agent
        .put('/api/user')
        .send({
          first_name: 'Ada\u0000',
          last_name: 'Lovelace',
          email: user.email,
          preferred_language: 'en-gb',
          profile_picture_id: null,
        })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['first_name']);
      const after = await agent.get('/api/user').expect(200);
      expect(after.body.first_name).toBe(user.firstName);
    });

    it('refuses a NUL in a query parameter and in a key', async () => {
      const query = await t.http.get('/api/test-probe/query?status[]=a%00b').expect(422);
      expect(Object.keys(query.body.errors)).toEqual(['status.0']);
      const key = await json('/api/test-probe/echo', '{"name":"x","steps":[],"a\\u0000":1}').expect(422);
      expect(key.body.errors).toEqual({ body: ['The body field must not contain NUL characters.'] });
    });

    it('refuses JSON nested 3,000 levels deep (15 KB) with 422 before validation', async () => {
      const deep = `{"name":"x","steps":${'['.repeat(3000)}${']'.repeat(3000)}}`;
      const res = await json('/api/test-probe/echo', deep).expect(422);
      const [field] = Object.keys(res.body.errors);
      expect(field).toMatch(/^steps(\.0)+$/);
      expect(res.body.errors[field]).toEqual([expect.stringContaining('nested too deeply')]);
    });
  });

  describe('deeply nested bodies on real endpoints', () => {
    const deepArrays = `${'['.repeat(5000)}${']'.repeat(5000)}`;

    it.each([
      ['/api/login', `{"email":"a@example.com","password":${deepArrays},"device_name":"x"}`],
      ['/api/forgot-password', `{"email":${deepArrays}}`],
      ['/api/organizations/signup', `{"name":${deepArrays}}`],
    ])('POST %s with 5,000 nested arrays → 422, not 500', async (path, body) => {
      const res = await t.http.post(path).set('Content-Type', 'application/json').send(body).expect(422);
      expect(JSON.stringify(res.body.errors)).toContain('nested too deeply');
    });

    it('PUT /api/user and POST /api/organizations with 5,000 nested arrays → 422, not 500', async () => {
      const { agent } = await t.signedInSuperAdmin();
      const user = await agent
        .put('/api/user')
        .set('Content-Type', 'application/json')
        .send(`{"first_name":${deepArrays}}`)
        .expect(422);
      expect(JSON.stringify(user.body.errors)).toContain('nested too deeply');
      const organization = await agent
        .post('/api/organizations')
        .set('X-Viewing-As', 'super-admin')
        .set('Content-Type', 'application/json')
        .send(`{"name":"x","manager_email":${deepArrays}}`)
        .expect(422);
      expect(JSON.stringify(organization.body.errors)).toContain('nested too deeply');
    });
  });

  describe('bodies', () => {
    it.each(['gzip', 'deflate', 'br'])(
      'answers a body that is not %s-encoded as it claims with 400 bad_request',
      async (encoding) => {
        const res = await t.http
          .post('/api/login')
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send('{"email":"a@example.com"}')
          .expect(400);
        expect(res.body).toEqual({
          message: 'The request body does not match its Content-Encoding.',
          error: 'bad_request',
        });
      },
    );

    it('reads a body that really is gzip- or br-encoded', async () => {
      const body = JSON.stringify({ name: 'x', steps: [] });
      for (const [encoding, bytes] of [
        ['gzip', gzipSync(body)],
        ['br', brotliCompressSync(body)],
      ] as const) {
        // Sent raw: supertest would serialise the compressed bytes as JSON.
        const head =
          `POST /api/test-probe/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Encoding: ${encoding}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
        const res = await sendRawHttp(
          t.app.getHttpServer() as Server,
          Buffer.concat([Buffer.from(head), bytes]),
        );
        expect(res.status).toBe(201);
        expect(JSON.parse(res.body)).toEqual({ name: 'x', steps: [] });
      }
    });

    it.each([
      ['text/plain', '{"email":"a@example.com"}'],
      ['application/x-www-form-urlencoded', `email${'[a]'.repeat(40)}=x`],
      ['application/xml', '<email/>'],
    ])('answers a %s body with 415 unsupported_media_type', async (type, body) => {
      const res = await t.http.post('/api/login').set('Content-Type', type).send(body).expect(415);
      expect(res.body).toEqual({
        message: 'Unsupported media type: send application/json.',
        error: 'unsupported_media_type',
      });
    });

    it('answers multipart on a route that takes no file with 415', async () => {
      const res = await t.http.post('/api/login').field('email', 'a@example.com').expect(415);
      expect(res.body.error).toBe('unsupported_media_type');
    });

    it('accepts a bodiless POST with no Content-Type (Content-Length: 0)', async () => {
      const { token } = await t.signedInUser();
      const raw = await sendRawHttp(
        t.app.getHttpServer() as Server,
        `POST /api/logout HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(raw.status).toBe(204);
    });

    it('accepts JSON with a charset parameter', async () => {
      await t.http
        .post('/api/test-probe/echo')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send('{"name":"x","steps":[]}')
        .expect(201);
    });
  });

  describe('methods', () => {
    it('answers a known path with a wrong method with 405 and Allow', async () => {
      const login = await t.http.get('/api/login').expect(405);
      expect(login.body).toEqual({ message: 'Method not allowed.', error: 'method_not_allowed' });
      expect(login.headers.allow).toBe('POST');
      const user = await t.http.delete('/api/user').expect(405);
      expect(user.headers.allow).toBe('GET, HEAD, PUT');
    });

    it('still answers an unknown path with 404', async () => {
      await t.http.get('/api/nope').expect(404, { message: 'Not found.', error: 'not_found' });
    });
  });

  describe("Node's HTTP parser", () => {
    const raw = (text: string) => sendRawHttp(t.app.getHttpServer() as Server, text);

    it('answers a bad method token with 400 in the envelope and a request id', async () => {
      const res = await raw('G@T /api/version HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body)).toEqual({
        message: 'The request is not valid HTTP.',
        error: 'bad_request',
      });
    });

    it('answers a 100,000-character query with 431 in the envelope', async () => {
      const res = await raw(`GET /api/version?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body)).toEqual({
        message: 'The request line or headers are too large.',
        error: 'request_header_fields_too_large',
      });
    });

    it('answers header overflow with 431 in the envelope', async () => {
      const res = await raw(`GET /api/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body).error).toBe('request_header_fields_too_large');
    });
  });

  describe('keep-alive connections', () => {
    /** Sends one request on an open socket and resolves with the status of its answer. */
    const ask = (socket: Socket) =>
      new Promise<number>((resolve, reject) => {
        let text = '';
        const onData = (chunk: Buffer) => {
          text += chunk.toString('utf8');
          const headerEnd = text.indexOf('\r\n\r\n');
          const length = /content-length: (\d+)/i.exec(text);
          if (headerEnd === -1 || !length) return;
          if (text.length < headerEnd + 4 + Number(length[1])) return;
          socket.off('data', onData);
          resolve(Number(text.split(' ')[1]));
        };
        socket.on('data', onData);
        socket.once('error', reject);
        socket.once('close', () => reject(new Error('the server closed the connection')));
        socket.write('GET /api/version HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
      });

    it('keeps an idle connection open longer than a proxy keeps its upstream ones (Node cuts at 5 s)', async () => {
      const server = t.app.getHttpServer() as Server;
      expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
      expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      const socket = connect(port, '127.0.0.1');
      try {
        expect(await ask(socket)).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 5_500));
        expect(await ask(socket)).toBe(200);
      } finally {
        socket.destroy();
      }
    }, 15_000);
  });

  describe('headers', () => {
    it('forbids caching answers that carry a token or personal data', async () => {
      const user = await t.makeUser();
      const login = await t.http
        .post('/api/login')
        .send({ email: user.email, password: 'correct horse battery staple', device_name: 'edge test' })
        .expect(200);
      expect(login.headers['cache-control']).toBe('no-store');
      const agent = t.http;
      const me = await agent.get('/api/user').set('Authorization', `Bearer ${login.body.token}`).expect(200);
      expect(me.headers['cache-control']).toBe('no-store');
      const forgot = await t.http.post('/api/forgot-password').send({ email: user.email }).expect(204);
      expect(forgot.headers['cache-control']).toBe('no-store');
      const reset = await t.http
        .post('/api/reset-password')
        .send({ email: user.email, token: 'x'.repeat(48), password: 'another long password' })
        .expect(422);
      expect(reset.headers['cache-control']).toBe('no-store');
    });

    it('sends the security headers of helmet', async () => {
      const res = await t.http.get('/api/version').expect(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-powered-by']).toBeUndefined();
    });
  });
});
