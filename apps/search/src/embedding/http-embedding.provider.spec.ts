import { inspect } from 'node:util';
import {
  embeddingsEndpoint,
  HttpEmbeddingProvider,
  l2Normalise,
  MalformedAnswer,
  parseEmbeddingResponse,
  parseRetryAfter,
} from './http-embedding.provider';
import type { HttpEmbeddingOptions } from './http-embedding.provider';

const norm = (v: Float32Array) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
const silent = { warn: () => undefined, error: () => undefined, log: () => undefined };
const options = (overrides: Partial<HttpEmbeddingOptions> = {}): HttpEmbeddingOptions => ({
  url: 'http://127.0.0.1:1',
  model: 'm',
  dimension: 3,
  queryTimeoutMs: 50,
  batchTimeoutMs: 50,
  batchSize: 2,
  maxRetries: 2,
  circuitFailures: 3,
  circuitCooldownMs: 100,
  logger: silent,
  ...overrides,
});

describe('embeddingsEndpoint', () => {
  it.each([
    ['http://ollama:11434', 'http://ollama:11434/v1/embeddings'],
    ['http://ollama:11434/', 'http://ollama:11434/v1/embeddings'],
    ['http://ollama:11434/v1', 'http://ollama:11434/v1/embeddings'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/embeddings'],
    ['https://gw.example/openai', 'https://gw.example/openai/v1/embeddings'],
    ['https://gw.example/openai/v1/embeddings', 'https://gw.example/openai/v1/embeddings'],
    ['http://127.0.0.1:8080/v1/embeddings/', 'http://127.0.0.1:8080/v1/embeddings'],
  ])('%s → %s', (base, endpoint) => {
    expect(embeddingsEndpoint(base).href).toBe(endpoint);
  });

  it('refuses what is not an http(s) URL', () => {
    expect(() => embeddingsEndpoint('ftp://host')).toThrow(/http\(s\)/);
    expect(() => embeddingsEndpoint('localhost:11434')).toThrow();
  });
});

describe('l2Normalise', () => {
  it('scales to length 1 and keeps direction', () => {
    const v = l2Normalise([3, 4]);
    expect(Array.from(v)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(norm(l2Normalise([1e-30, 2e-30, -3e-30]))).toBeCloseTo(1, 6);
    expect(norm(l2Normalise([1e20, 1e20]))).toBeCloseTo(1, 6);
  });

  it('refuses a zero vector', () => {
    expect(() => l2Normalise([0, 0, 0])).toThrow(MalformedAnswer);
  });
});

describe('parseEmbeddingResponse', () => {
  const item = (index: number, embedding: unknown) => ({ object: 'embedding', index, embedding });

  it('orders by index and normalises', () => {
    const vectors = parseEmbeddingResponse(
      { object: 'list', data: [item(1, [0, 2, 0]), item(0, [5, 0, 0])], model: 'm', usage: {} },
      2,
      3,
    );
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [1, 0, 0],
      [0, 1, 0],
    ]);
  });

  it('takes array order when no item has an index', () => {
    const vectors = parseEmbeddingResponse(
      { data: [{ embedding: [0, 0, 3] }, { embedding: [4, 0, 0] }] },
      2,
      3,
    );
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [0, 0, 1],
      [1, 0, 0],
    ]);
  });

  it.each<[string, unknown, RegExp]>([
    ['not an object', 'hello', /no `data` array/],
    ['null', null, /no `data` array/],
    ['no data', { error: 'x' }, /no `data` array/],
    ['data not an array', { data: {} }, /no `data` array/],
    ['too few', { data: [item(0, [1, 0, 0])] }, /1 embeddings for 2 inputs/],
    ['an item not an object', { data: [item(0, [1, 0, 0]), 7] }, /data\[1\] is not an object/],
    ['index out of range', { data: [item(0, [1, 0, 0]), item(2, [1, 0, 0])] }, /data\[1\]\.index is 2/],
    ['index missing on one', { data: [item(0, [1, 0, 0]), { embedding: [1, 0, 0] }] }, /index is missing/],
    ['index twice', { data: [item(0, [1, 0, 0]), item(0, [1, 0, 0])] }, /index 0 appears twice/],
    ['base64', { data: [item(0, 'AAAA'), item(1, [1, 0, 0])] }, /base64/],
    ['no embedding', { data: [{ index: 0 }, item(1, [1, 0, 0])] }, /not an array/],
    [
      'wrong dimension',
      { data: [item(0, [1, 0, 0]), item(1, [1, 0])] },
      /dimension 2, EMBEDDING_DIMENSION is 3/,
    ],
    ['not numbers', { data: [item(0, [1, '0', 0]), item(1, [1, 0, 0])] }, /finite numbers/],
    ['null inside', { data: [item(0, [1, null, 0]), item(1, [1, 0, 0])] }, /finite numbers/],
    ['zero vector', { data: [item(0, [0, 0, 0]), item(1, [1, 0, 0])] }, /zero vector/],
  ])('refuses %s', (_, body, message) => {
    expect(() => parseEmbeddingResponse(body, 2, 3)).toThrow(message);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.05', now)).toBe(50);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores what is absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('HttpEmbeddingProvider', () => {
  it('backs off exponentially with jitter in the upper half, up to a cap', () => {
    // cockatiel's jitter draws from Math.random.
    const random = jest.spyOn(Math, 'random');
    const low = new HttpEmbeddingProvider(options({ retryBaseDelayMs: 100, retryMaxDelayMs: 1000 }));
    const high = new HttpEmbeddingProvider(options({ retryBaseDelayMs: 100, retryMaxDelayMs: 1000 }));
    random.mockReturnValue(0);
    expect([0, 1, 2, 3, 4, 10].map((retry) => low.backoffMs(retry))).toEqual([50, 100, 200, 400, 500, 500]);
    random.mockReturnValue(1);
    expect([0, 1, 2, 3, 4, 10].map((retry) => high.backoffMs(retry))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    random.mockRestore();
  });

  it('keeps the API key out of inspection and JSON', () => {
    const provider = new HttpEmbeddingProvider(options({ apiKey: 'sk-secret-123' }));
    expect(inspect(provider, { depth: 10, showHidden: true })).not.toContain('sk-secret-123');
    expect(JSON.stringify(provider)).not.toContain('sk-secret-123');
  });

  it('needs a model and a batch size', () => {
    expect(() => new HttpEmbeddingProvider(options({ model: '' }))).toThrow(/EMBEDDING_MODEL/);
    expect(() => new HttpEmbeddingProvider(options({ batchSize: 0 }))).toThrow(/batch size/);
  });

  it('sends nothing for no documents', async () => {
    const provider = new HttpEmbeddingProvider(options());
    await expect(provider.embedDocuments([])).resolves.toEqual([]);
  });
});
