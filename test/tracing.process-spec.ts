import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BUILT,
  FakeEmbeddingServer,
  freePort,
  NodeProcess,
  OtlpReceiver,
  type ReceivedSpan,
  RecordingSmtpServer,
  ServiceProcess,
} from '@rt/testing';

/**
 * Traces: both built services run as processes with the OTEL_* variables pointed at an
 * in-process OTLP/HTTP receiver (JSON), every span sampled. Checked: a request that carries a W3C
 * `traceparent` continues that trace, with its server span named by the route template and its
 * PostgreSQL statements as children; an email's delivery links to the request that enqueued it
 * and holds the SMTP call; the CSV export is one span with its row count; a search holds the
 * embedding provider's call; a reindex is a trace of its own with its steps; log lines and error
 * responses name the trace; a clean shutdown exports what was buffered; and no password, token,
 * email address, email body or SQL parameter value is in any exported span.
 */
const ADMIN_EMAIL = 'tracing.admin@example.com';
const ADMIN_PASSWORD = 'tracing admin passphrase 1';
const WRONG_PASSWORD = 'tracing wrong passphrase 2';
const NEW_PASSWORD = 'tracing new passphrase 3';
const SEARCH_TEXT = 'alpine lake hiking';
const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

/** A fresh W3C trace context, as a client's own tracer would send it. */
function newTraceparent(): { traceId: string; header: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

const serverSpanOf = (spans: ReceivedSpan[]) => spans.find((span) => span.kind === SPAN_KIND.server);
const statementsUnder = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId && span.name.startsWith('pg.query'));

describe('traces of both services (OTLP/HTTP JSON to an in-process receiver)', () => {
  let workDir: string;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'rt-tracing-'));
    receiver = await OtlpReceiver.start();
  });

  afterAll(async () => {
    await NodeProcess.stopAll();
    await receiver.close();
    await rm(workDir, { recursive: true, force: true });
  });

  describe('the backend', () => {
    let smtp: RecordingSmtpServer;
    let backend: ServiceProcess;
    const secrets: Record<string, string> = {
      'the admin password': ADMIN_PASSWORD,
      'a wrong password': WRONG_PASSWORD,
      'the new password': NEW_PASSWORD,
      "the admin's email address": ADMIN_EMAIL,
    };

    const call = (
      path: string,
      init: { method?: string; body?: unknown; token?: string; traceparent?: string } = {},
    ) =>
      fetch(`${backend.base}/api${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
          ...(init.traceparent ? { traceparent: init.traceparent } : {}),
          'X-Viewing-As': 'super-admin',
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });

    beforeAll(async () => {
      smtp = new RecordingSmtpServer(await freePort());
      await smtp.start();
      backend = await ServiceProcess.start({
        name: 'backend',
        script: BUILT.backendMain,
        withoutEnv: /^(DATABASE_URL|OTEL_)/,
        env: {
          DATABASE_URL: '',
          DATA_DIR: join(workDir, 'backend-database'),
          IMAGE_DIR: join(workDir, 'images'),
          SMTP_URL: smtp.url,
          LOG_LEVEL: 'debug',
          ADMIN_EMAIL,
          ADMIN_PASSWORD,
          MAIL_POLL_INTERVAL_MS: '100',
          PASSWORD_SCRYPT_N: '1024',
          PASSWORD_SCRYPT_P: '1',
          ...receiver.environment(),
        },
      });
      await backend.ready(90_000);
    });

    afterAll(async () => {
      await backend?.stop();
      await smtp?.stop();
    });

    it('continues a client trace: the server span by route template, its statements as children, the trace id in logs and answers', async () => {
      expect(
        (await call('/login', { body: { email: ADMIN_EMAIL, password: WRONG_PASSWORD, device_name: 'x' } }))
          .status,
      ).toBe(422);
      const trace = newTraceparent();
      const login = await call('/login', {
        body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, device_name: 'laptop' },
        traceparent: trace.header,
      });
      expect(login.status).toBe(200);
      expect(login.headers.get('x-trace-id')).toBe(trace.traceId);
      const { token } = (await login.json()) as { token: string };
      secrets['the bearer token'] = token;
      secrets["the bearer token's secret"] = token.split('|')[1];

      const server = await receiver.waitForSpan(
        (span) => span.traceId === trace.traceId && span.kind === SPAN_KIND.server,
      );
      expect(server.name).toBe('POST /api/login');
      expect(server.parentSpanId).toBe(trace.header.split('-')[2]);
      expect(server.attributes['http.route']).toBe('/api/login');
      expect(server.resource['service.name']).toBe('road-trip-backend');
      const statements = statementsUnder(receiver.trace(trace.traceId), server);
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.every((span) => typeof span.attributes['db.query.text'] === 'string')).toBe(true);

      const requestLine = backend
        .output()
        .split('\n')
        .find((line) => line.includes('"request completed"') && line.includes(trace.traceId));
      expect(requestLine && JSON.parse(requestLine)).toMatchObject({
        trace_id: trace.traceId,
        span_id: server.spanId,
      });

      const missing = await call('/tour/00000000-0000-4000-8000-000000000000', {
        token,
        traceparent: newTraceparent().header,
      });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('x-request-id')).toBeTruthy();
      expect(missing.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    });

    it("links an email's delivery, with its SMTP call, to the request that enqueued it", async () => {
      const trace = newTraceparent();
      expect(
        (await call('/forgot-password', { body: { email: ADMIN_EMAIL }, traceparent: trace.header })).status,
      ).toBe(204);
      const request = await receiver.waitForSpan(
        (span) => span.traceId === trace.traceId && span.kind === SPAN_KIND.server,
      );
      const delivery = await receiver.waitForSpan(
        (span) => span.name === 'mail.deliver' && span.links.some((link) => link.traceId === trace.traceId),
      );
      expect(delivery.traceId).not.toBe(trace.traceId);
      expect(delivery.links).toEqual([{ traceId: trace.traceId, spanId: request.spanId }]);
      expect(delivery.attributes).toMatchObject({
        'mail.template': 'password-reset',
        'mail.outcome': 'sent',
      });
      const send = await receiver.waitForSpan(
        (span) => span.name === 'smtp send' && span.parentSpanId === delivery.spanId,
      );
      expect(send.kind).toBe(SPAN_KIND.client);
      expect(send.attributes['server.port']).toBe(smtp.port);

      await waitForMails(smtp, 3);
      const mails = smtp.received.map((mail) => mail.raw);
      const tokens = mails.flatMap((raw) =>
        [...raw.matchAll(/token=3D([A-Za-z0-9]+)|token=([A-Za-z0-9]+)/g)].map((m) => m[1] ?? m[2]),
      );
      expect(tokens.length).toBeGreaterThanOrEqual(3);
      tokens.forEach((token, i) => (secrets[`emailed link token ${i + 1}`] = token));
      const subject = /^Subject:\s*(.+)$/im.exec(mails[mails.length - 1])?.[1].trim();
      expect(subject).toBeTruthy();
      secrets['an email subject'] = subject!;
    });

    it('traces the CSV export as one span with its row count', async () => {
      const trace = newTraceparent();
      const exported = await call('/activation-codes/export', {
        token: secrets['the bearer token'],
        traceparent: trace.header,
      });
      expect(exported.status).toBe(200);
      const lines = (await exported.text()).split('\r\n').filter(Boolean);
      const span = await receiver.waitForSpan(
        (candidate) => candidate.traceId === trace.traceId && candidate.name === 'activation_codes.export',
      );
      expect(span.attributes['export.rows']).toBe(lines.length - 1);
      expect(span.parentSpanId).toBe(
        (await receiver.waitForSpan((c) => c.traceId === trace.traceId && c.kind === SPAN_KIND.server))
          .spanId,
      );
    });

    it('exports no secret, address, email body or SQL parameter in any span', async () => {
      await backend.stop();
      const exported = receiver.bodies.join('\n');
      expect(exported).toContain('road-trip-backend');
      const leaked = Object.entries(secrets).filter(([, secret]) => exported.includes(secret));
      expect(leaked.map(([what]) => what)).toEqual([]);
    });
  });

  describe('the search service', () => {
    const fake = new FakeEmbeddingServer(384);
    let search: ServiceProcess;
    let catalogue: string;

    beforeAll(async () => {
      await fake.up();
      catalogue = join(workDir, 'catalogue.ndjson');
      const generator = new NodeProcess({
        name: 'generator',
        script: BUILT.searchGenerateCatalogue,
        args: ['--count', '60', '--out', catalogue],
      });
      expect((await generator.exited).code).toBe(0);
      search = await ServiceProcess.start({
        name: 'search',
        script: BUILT.searchMain,
        withoutEnv: /^(DATABASE_URL|OTEL_|CATALOGUE_|EMBEDDING_|SEARCH_|REINDEX_)/,
        env: {
          DATABASE_URL: '',
          DATA_DIR: join(workDir, 'search-database'),
          CATALOGUE_SOURCE: catalogue,
          EMBEDDING_PROVIDER: 'http',
          EMBEDDING_URL: fake.url,
          EMBEDDING_MODEL: 'fake-model',
          EMBEDDING_DIMENSION: '384',
          QUERY_EMBEDDING_CACHE_SIZE: '0',
          ...receiver.environment(),
          // Nothing is exported before the shutdown: what arrives proves the shutdown flushed it.
          OTEL_BSP_SCHEDULE_DELAY: '600000',
        },
      });
      await search.ready(90_000);
    });

    afterAll(async () => {
      await search?.stop();
      await fake.down();
    });

    it('holds the embedding call in a search, each reindex step in a reindex, and exports them at shutdown', async () => {
      const searching = newTraceparent();
      const found = await fetch(`${search.base}/travels?search=${encodeURIComponent(SEARCH_TEXT)}`, {
        headers: { traceparent: searching.header },
      });
      expect(found.status).toBe(200);
      expect(found.headers.get('x-trace-id')).toBe(searching.traceId);
      const reindexing = newTraceparent();
      expect(
        (await fetch(`${search.base}/reindex`, { headers: { traceparent: reindexing.header } })).status,
      ).toBe(200);
      await waitForReindex(search, 2);
      const before = receiver.spans.filter(
        (span) => span.resource['service.name'] === 'travel-search',
      ).length;
      expect(before).toBe(0);

      await search.stop();
      const spans = receiver.spans.filter((span) => span.resource['service.name'] === 'travel-search');
      const searchTrace = spans.filter((span) => span.traceId === searching.traceId);
      const server = serverSpanOf(searchTrace)!;
      expect(server.name).toBe('GET /travels');
      expect(statementsUnder(searchTrace, server).length).toBeGreaterThan(0);
      const embeddingCall = searchTrace.find(
        (span) =>
          span.kind === SPAN_KIND.client && span.attributes['server.port'] === Number(new URL(fake.url).port),
      );
      expect(embeddingCall).toBeDefined();

      const requested = serverSpanOf(spans.filter((span) => span.traceId === reindexing.traceId))!;
      const run = spans.find(
        (span) => span.name === 'reindex' && span.links.some((link) => link.spanId === requested.spanId),
      );
      expect(run).toBeDefined();
      expect(run!.parentSpanId).toBeUndefined();
      expect(run!.attributes).toMatchObject({ 'reindex.trigger': 'http', 'reindex.status': 'succeeded' });
      const steps = spans.filter((span) => span.traceId === run!.traceId).map((span) => span.name);
      expect(steps).toEqual(expect.arrayContaining(['reindex.read', 'reindex.diff', 'reindex.apply']));
      // The first build at start embedded the catalogue; its trace holds the batches and their calls.
      const firstBuild = spans.find(
        (span) => span.name === 'reindex' && span.attributes['reindex.trigger'] === 'startup',
      );
      const firstBuildSpans = spans.filter((span) => span.traceId === firstBuild?.traceId);
      expect(firstBuildSpans.map((span) => span.name)).toEqual(
        expect.arrayContaining(['reindex.read', 'reindex.embed', 'reindex.diff', 'reindex.apply']),
      );
      expect(firstBuildSpans.some((span) => span.kind === SPAN_KIND.client)).toBe(true);

      // The query's words travel as a statement parameter, never in the statement's text.
      const statements = spans.filter((span) => span.name.startsWith('pg.query'));
      expect(statements.filter((span) => JSON.stringify(span.attributes).includes('alpine'))).toEqual([]);
    });
  });
});

async function waitForMails(smtp: RecordingSmtpServer, count: number): Promise<void> {
  for (let attempt = 0; attempt < 200 && smtp.received.length < count; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(smtp.received.length).toBeGreaterThanOrEqual(count);
}

async function waitForReindex(search: ServiceProcess, runs: number): Promise<void> {
  const succeeded = () => search.output().split('"msg":"Reindex succeeded"').length - 1;
  for (let attempt = 0; attempt < 300 && succeeded() < runs; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(succeeded()).toBeGreaterThanOrEqual(runs);
}
