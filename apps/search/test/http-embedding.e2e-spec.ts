import { Registry } from 'prom-client';
import { FakeEmbeddingServer } from '@rt/testing';
import { BuiltinEmbeddingProvider } from '../src/embedding/builtin-embedding.provider';
import { EMBEDDING_PROVIDER } from '../src/embedding/embedding-provider';
import { EmbeddingMetrics } from '../src/embedding/embedding-metrics';
import { EmbeddingUnavailableError } from '../src/embedding/embedding-unavailable.error';
import { HttpEmbeddingProvider } from '../src/embedding/http-embedding.provider';
import type { HttpEmbeddingOptions } from '../src/embedding/http-embedding.provider';
import { CachedEmbeddingProvider } from '../src/embedding/query-embedding-cache';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import { VectorIndexService } from '../src/indexes/vector-index/vector-index.service';
import { builtinTimesThree } from './builtin-fake-vector';
import { createTestApp, TestApp } from './test-app';

const DIM = 16;
const KEY = 'sk-test-key-0123456789';
const silent = { warn: () => undefined, error: () => undefined, log: () => undefined };
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
};
const norm = (a: ArrayLike<number>) => Math.sqrt(dot(a, a));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error a promise rejects with, and how long it took. */
async function failure(promise: Promise<unknown>): Promise<{ error: Error; ms: number }> {
  const started = performance.now();
  try {
    await promise;
  } catch (error) {
    return { error: error as Error, ms: performance.now() - started };
  }
  throw new Error('expected a rejection');
}

async function metric(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const found = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (found?.values ?? []) as { value: number; labels: Record<string, string | number> }[];
  return values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? NaN;
}

describe('HttpEmbeddingProvider against a real OpenAI-compatible server', () => {
  const server = new FakeEmbeddingServer(DIM, builtinTimesThree);
  const builtin = new BuiltinEmbeddingProvider(DIM);
  let registry: Registry;
  let metrics: EmbeddingMetrics;
  let delays: number[];

  const provider = (overrides: Partial<HttpEmbeddingOptions> = {}) =>
    new HttpEmbeddingProvider({
      url: server.url,
      model: 'fake-embed',
      dimension: DIM,
      apiKey: KEY,
      // Generous, so a cold first request on a loaded CI machine cannot time out; the tests
      // about timeouts set their own short ones against a server that is far slower.
      queryTimeoutMs: 2000,
      batchTimeoutMs: 2000,
      batchSize: 2,
      maxRetries: 2,
      circuitFailures: 3,
      circuitCooldownMs: 150,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 20,
      logger: silent,
      metrics,
      ...overrides,
    });
  /**
   * Records the retry delays instead of waiting them (Retry-After of whole seconds): cockatiel waits on
   * a timer, made fake, that it sets just before the provider logs "retrying in N ms"; the log fires it.
   */
  const recordingDelays = () => {
    jest.useFakeTimers({
      doNotFake: [
        'Date',
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
      ],
    });
    return {
      logger: {
        ...silent,
        warn: (message: string) => {
          const ms = Number(/retrying in (\d+) ms$/.exec(message)?.[1]);
          delays.push(ms);
          jest.advanceTimersByTime(ms);
        },
      },
    };
  };

  beforeAll(async () => {
    await server.up();
  });
  afterAll(() => server.down());
  beforeEach(async () => {
    server.reset();
    await server.up();
    registry = new Registry();
    metrics = new EmbeddingMetrics(registry);
    delays = [];
  });
  afterEach(() => jest.useRealTimers());
  /** search_embedding_http_requests_total of this test's provider, for one path and outcome. */
  const requestsCounted = (path: 'query' | 'documents', outcome: string) =>
    metric(registry, 'search_embedding_http_requests_total', { path, outcome });

  describe('success', () => {
    it('embeds a query with one POST to /v1/embeddings (model, input, bearer key) and normalises the vector', async () => {
      const vector = await provider().embedQuery('Lake Como by boat');
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(DIM);
      expect(norm(vector)).toBeCloseTo(1, 5);
      expect(dot(vector, builtin.embed('Lake Como by boat'))).toBeCloseTo(1, 5);
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request.path).toBe('/v1/embeddings');
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.body).toEqual({ model: 'fake-embed', input: ['Lake Como by boat'] });
    });

    it('embeds documents in batches of the configured size, in input order (answers come by index)', async () => {
      const texts = ['Rome', 'Oslo fjords', 'Bergen', 'Lisboa food', 'Zermatt ski'];
      const vectors = await provider({ batchSize: 2 }).embedDocuments(texts);
      expect(server.requests.map((r) => r.body.input)).toEqual([
        ['Rome', 'Oslo fjords'],
        ['Bergen', 'Lisboa food'],
        ['Zermatt ski'],
      ]);
      expect(vectors).toHaveLength(5);
      vectors.forEach((vector, i) => {
        expect(norm(vector)).toBeCloseTo(1, 5);
        expect(dot(vector, builtin.embed(texts[i]))).toBeCloseTo(1, 5);
      });
      expect(await requestsCounted('documents', 'ok')).toBe(3);
    });

    it('takes a base URL ending in /v1, sends `dimensions` only when asked to, and no Authorization without a key', async () => {
      await provider({ url: `${server.url}/v1/`, apiKey: undefined, sendDimensions: true }).embedQuery(
        'Bern',
      );
      await provider({ url: `${server.url}/v1/embeddings` }).embedQuery('Bern');
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/embeddings', '/v1/embeddings']);
      expect(server.requests[0].headers.authorization).toBeUndefined();
      expect(server.requests[0].body).toEqual({ model: 'fake-embed', input: ['Bern'], dimensions: DIM });
      expect(server.requests[1].body).not.toHaveProperty('dimensions');
    });
  });

  describe('slow', () => {
    it('a query gets one short attempt: a slow server → EmbeddingUnavailableError quickly, no retry', async () => {
      server.fallback = { kind: 'slow', delayMs: 1000 };
      const { error, ms } = await failure(provider({ queryTimeoutMs: 50 }).embedQuery('Paris'));
      expect(error).toBeInstanceOf(EmbeddingUnavailableError);
      expect(error.message).toMatch(/fake-embed, query\) failed: no answer within 50 ms/);
      expect(ms).toBeLessThan(400);
      expect(server.requests).toHaveLength(1);
      expect(await requestsCounted('query', 'timeout')).toBe(1);
    });

    it('the timeout covers a body that never comes', async () => {
      server.fallback = { kind: 'stall-body', delayMs: 1000 };
      const { error, ms } = await failure(provider({ queryTimeoutMs: 50 }).embedQuery('Paris'));
      expect(error).toBeInstanceOf(EmbeddingUnavailableError);
      expect(error.message).toMatch(/no answer within 50 ms/);
      expect(ms).toBeLessThan(400);
    });

    it('a batch is retried after a timeout', async () => {
      server.answer({ kind: 'slow', delayMs: 300 });
      const vectors = await provider({ batchTimeoutMs: 50 }).embedDocuments(['Nice', 'Cannes']);
      expect(vectors).toHaveLength(2);
      expect(server.requests).toHaveLength(2);
    });

    it('a batch gives up after the last retry', async () => {
      server.fallback = { kind: 'slow', delayMs: 300 };
      const { error } = await failure(
        provider({ batchTimeoutMs: 30, maxRetries: 2, circuitFailures: 10 }).embedDocuments(['Nice']),
      );
      expect(error).toBeInstanceOf(EmbeddingUnavailableError);
      expect(error.message).toMatch(/documents\) failed after 3 attempts: no answer within 30 ms/);
      expect(server.requests).toHaveLength(3);
    });
  });

  describe('down', () => {
    it('connection refused → EmbeddingUnavailableError naming the cause', async () => {
      const p = provider();
      await server.down();
      const { error } = await failure(p.embedQuery('Paris'));
      expect(error).toBeInstanceOf(EmbeddingUnavailableError);
      expect(error.message).toMatch(/unreachable \(ECONNREFUSED\)/);
      expect(error.message).toContain(`${server.url}/v1/embeddings`);
      expect(error.message).not.toContain(KEY);
    });

    it('opens the circuit after consecutive failures: calls then fail fast without a request; a trial after the cool-down closes it', async () => {
      const p = provider({ circuitFailures: 3, circuitCooldownMs: 150 });
      await server.down();
      for (let i = 0; i < 3; i++) await expect(p.embedQuery('Paris')).rejects.toThrow(/ECONNREFUSED/);
      expect(p.breaker.state).toBe('open');
      expect(await metric(registry, 'search_embedding_circuit_state')).toBe(2);

      await server.up();
      const { error, ms } = await failure(p.embedQuery('Paris'));
      expect(error).toBeInstanceOf(EmbeddingUnavailableError);
      expect(error.message).toMatch(
        /circuit breaker is open after 3 failed requests in a row \(next trial in \d+ ms\)/,
      );
      expect(ms).toBeLessThan(100);
      await expect(p.embedDocuments(['Rome'])).rejects.toThrow(/circuit breaker is open/);
      expect(server.requests).toHaveLength(0);
      expect(await requestsCounted('query', 'circuit_open')).toBe(1);

      await sleep(160);
      expect(p.breaker.state).toBe('half_open');
      await expect(p.embedQuery('Paris')).resolves.toHaveLength(DIM);
      expect(p.breaker.state).toBe('closed');
      expect(await metric(registry, 'search_embedding_circuit_state')).toBe(0);
      await expect(p.embedQuery('Rome')).resolves.toHaveLength(DIM);
      expect(server.requests).toHaveLength(2);
    });

    it('a failed trial opens the circuit for another cool-down; one trial at a time', async () => {
      const p = provider({ circuitFailures: 1, circuitCooldownMs: 100 });
      server.fallback = { kind: 'status', status: 502 };
      await expect(p.embedQuery('a')).rejects.toThrow(/HTTP 502/);
      await sleep(110);
      await expect(p.embedQuery('b')).rejects.toThrow(/HTTP 502/);
      await expect(p.embedQuery('c')).rejects.toThrow(/circuit breaker is open/);
      expect(server.requests).toHaveLength(2);

      server.fallback = { kind: 'slow', delayMs: 30 };
      await sleep(110);
      const trial = p.embedQuery('d');
      await expect(p.embedQuery('e')).rejects.toThrow(/circuit breaker is open/);
      await expect(trial).resolves.toHaveLength(DIM);
      expect(p.breaker.state).toBe('closed');
    });

    it('a batch stops retrying once the circuit opens', async () => {
      const p = provider({ maxRetries: 5, circuitFailures: 3 });
      await server.down();
      const { error } = await failure(p.embedDocuments(['Rome']));
      expect(error.message).toMatch(/failed after 4 attempts: the circuit breaker is open/);
    });
  });

  describe('malformed answers', () => {
    it.each([
      ['bad JSON', { kind: 'raw', body: '{"data": [' }, /malformed answer: not JSON: \{"data": \[/],
      [
        'HTML',
        { kind: 'raw', body: '<html>proxy</html>', contentType: 'text/html' },
        /not JSON: <html>proxy/,
      ],
      ['missing data', { kind: 'json', body: { object: 'list' } }, /malformed answer: no `data` array/],
      ['wrong dimension', { kind: 'ok', dimension: DIM + 1 }, /dimension 17, EMBEDDING_DIMENSION is 16/],
      [
        'fewer embeddings than inputs',
        { kind: 'json', body: { data: [] } },
        /malformed answer: 0 embeddings for 1 inputs/,
      ],
    ] as const)(
      '%s → EmbeddingUnavailableError with a clear message, not retried',
      async (_, answer, message) => {
        server.fallback = answer;
        const p = provider();
        const query = await failure(p.embedQuery('Paris'));
        expect(query.error).toBeInstanceOf(EmbeddingUnavailableError);
        expect(query.error.message).toMatch(message);
        const batch = await failure(p.embedDocuments(['Paris']));
        expect(batch.error).toBeInstanceOf(EmbeddingUnavailableError);
        expect(batch.error.message).toMatch(message);
        expect(server.requests).toHaveLength(2);
        expect(await requestsCounted('documents', 'malformed')).toBe(1);
      },
    );
  });

  describe('rate limits and server errors', () => {
    it('a batch waits as long as Retry-After says after a 429, then succeeds', async () => {
      server.answer(
        { kind: 'status', status: 429, retryAfter: '1' },
        { kind: 'status', status: 429, retryAfter: '2' },
      );
      const vectors = await provider(recordingDelays()).embedDocuments(['Nice', 'Cannes']);
      expect(vectors).toHaveLength(2);
      expect(delays).toEqual([1000, 2000]);
      expect(server.requests).toHaveLength(3);
      expect(await requestsCounted('documents', 'rate_limited')).toBe(2);
    });

    it('reads Retry-After as an HTTP date too (a 503)', async () => {
      const at = new Date(Date.now() + 3000).toUTCString();
      server.answer({ kind: 'status', status: 503, retryAfter: at });
      await provider(recordingDelays()).embedDocuments(['Nice']);
      expect(delays).toHaveLength(1);
      expect(delays[0]).toBeGreaterThan(1000);
      expect(delays[0]).toBeLessThanOrEqual(3000);
    });

    it('backs off exponentially with jitter after 5xx without Retry-After', async () => {
      server.answer(
        { kind: 'status', status: 500 },
        { kind: 'status', status: 503 },
        { kind: 'status', status: 504 },
      );
      await provider({
        ...recordingDelays(),
        maxRetries: 3,
        circuitFailures: 10,
        retryBaseDelayMs: 100,
        retryMaxDelayMs: 1000,
      }).embedDocuments(['Nice']);
      expect(delays).toHaveLength(3);
      [100, 200, 400].forEach((cap, i) => {
        expect(delays[i]).toBeGreaterThanOrEqual(cap / 2);
        expect(delays[i]).toBeLessThanOrEqual(cap);
      });
      expect(server.requests).toHaveLength(4);
    });

    it('gives up at once when Retry-After is beyond the longest wait', async () => {
      server.fallback = { kind: 'status', status: 429, retryAfter: '3600' };
      const { error } = await failure(provider(recordingDelays()).embedDocuments(['Nice']));
      expect(error.message).toMatch(/answered HTTP 429/);
      expect(delays).toEqual([]);
      expect(server.requests).toHaveLength(1);
    });

    it('a 429 neither opens the circuit nor is retried on the query path', async () => {
      const p = provider({ circuitFailures: 1, maxRetries: 0 });
      server.fallback = { kind: 'status', status: 429, retryAfter: '1' };
      await expect(p.embedQuery('Paris')).rejects.toThrow(/HTTP 429/);
      await expect(p.embedDocuments(['Paris'])).rejects.toThrow(/HTTP 429/);
      expect(p.breaker.state).toBe('closed');
      expect(server.requests).toHaveLength(2);
      server.fallback = { kind: 'status', status: 503 };
      await expect(p.embedQuery('Paris')).rejects.toThrow(/fake-embed, query\) failed: answered HTTP 503/);
      expect(server.requests).toHaveLength(3);
    });

    it('other 4xx are not retried; a key the server echoes is masked', async () => {
      server.fallback = { kind: 'status', status: 401, body: `{"error":"invalid key ${KEY}"}` };
      const { error } = await failure(provider(recordingDelays()).embedDocuments(['Nice']));
      expect(error).toBeInstanceOf(EmbeddingUnavailableError);
      expect(error.message).toMatch(/answered HTTP 401: \{"error":"invalid key \*\*\*"\}/);
      expect(error.message).not.toContain(KEY);
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe('the service with EMBEDDING_PROVIDER=http', () => {
  const server = new FakeEmbeddingServer(384, builtinTimesThree);
  const KEY_OF_APP = 'sk-app-key-abcdef';
  let t: TestApp;

  beforeAll(async () => {
    await server.up();
    t = await createTestApp({
      env: {
        EMBEDDING_PROVIDER: 'http',
        EMBEDDING_URL: `${server.url}/v1`,
        EMBEDDING_MODEL: 'fake-embed',
        EMBEDDING_API_KEY: KEY_OF_APP,
        EMBEDDING_BATCH_SIZE: '8',
        // nothing here is about timeouts: bounds a loaded 2-core CI machine never reaches (a 200 ms
        // bound was once passed there, and the timed-out query opened the circuit for the reindex)
        EMBEDDING_TIMEOUT_MS: '5000',
        EMBEDDING_BATCH_TIMEOUT_MS: '10000',
        EMBEDDING_MAX_RETRIES: '1',
        EMBEDDING_CIRCUIT_FAILURES: '3',
        EMBEDDING_CIRCUIT_COOLDOWN_MS: '200',
        CATALOGUE_SOURCE: 'generated:20',
      },
    });
    await t.reindex.idle();
  });
  afterAll(async () => {
    await t?.close();
    await server.down();
  });

  it('builds the index through the server in batches; the stored vectors are normalised', async () => {
    expect(server.requests.map((r) => (r.body.input as string[]).length)).toEqual([8, 8, 4]);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY_OF_APP}`)).toBe(true);
    const rows: { embedding: string }[] = await t.dataSource.query(
      'SELECT embedding::text AS embedding FROM travel_offers',
    );
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(norm(JSON.parse(row.embedding) as number[])).toBeCloseTo(1, 4);
    const [run] = await t.dataSource.query('SELECT status, embedding_model FROM reindex_runs ORDER BY id');
    expect(run).toEqual({ status: 'succeeded', embedding_model: 'fake-embed' });
  });

  it('caches query embeddings: repeated searches make one request', async () => {
    const provider = t.app.get<CachedEmbeddingProvider>(EMBEDDING_PROVIDER);
    expect(provider).toBeInstanceOf(CachedEmbeddingProvider);
    expect(provider.inner).toBeInstanceOf(HttpEmbeddingProvider);
    server.reset();
    const first = await provider.embedQuery('Alpine lakes');
    const second = await provider.embedQuery(' Alpine   lakes ');
    expect(Array.from(second)).toEqual(Array.from(first));
    expect(server.requests).toHaveLength(1);
    const metrics = (await t.http.get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^search_query_embedding_cache_lookups_total\{result="hit"\} [1-9]/m);
    expect(metrics).toMatch(/^search_embedding_http_requests_total\{path="documents",outcome="ok"\} 3$/m);
    expect(metrics).toMatch(/^search_embedding_calls_total\{path="query",outcome="ok"\} [1-9]/m);
    expect(metrics).toMatch(/^search_embedding_circuit_state 0$/m);
  });

  it("holds the vectors in memory without the sparse layout (a model's queries are dense)", async () => {
    const text = await t.app.get(TextIndexService).loaded();
    const vectors = t.app.get(VectorIndexService);
    await vectors.settled();
    const index = vectors.forGeneration(text.generation);
    expect(index?.offers).toBe(20);
    expect(index?.sparse).toBeUndefined();
  });

  it('an embedding service that keeps failing fails the reindex and leaves the index as it was', async () => {
    server.reset();
    server.fallback = { kind: 'status', status: 503 };
    t.config.catalogueSource = 'generated:25';
    const outcome = await t.reindex.run('http');
    expect(outcome).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(
        /^Embedding service http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings .*failed after 2 attempts: answered HTTP 503/,
      ),
    });
    expect(JSON.stringify(outcome)).not.toContain(KEY_OF_APP);
    expect(server.requests).toHaveLength(2);
    const [{ count }] = await t.dataSource.query('SELECT count(*)::int AS count FROM travel_offers');
    expect(count).toBe(20);

    server.fallback = { kind: 'ok' };
    await expect(t.reindex.run('http')).resolves.toMatchObject({
      status: 'succeeded',
      inserted: 5,
      unchanged: 20,
    });
  });
});
