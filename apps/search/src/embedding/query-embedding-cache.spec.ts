import { LRUCache } from 'lru-cache';
import { Registry } from 'prom-client';
import { BuiltinEmbeddingProvider } from './builtin-embedding.provider';
import type { EmbeddingProvider } from './embedding-provider';
import { EmbeddingMetrics } from './embedding-metrics';
import { EmbeddingUnavailableError } from './embedding-unavailable.error';
import {
  CachedEmbeddingProvider,
  normaliseQueryText,
  queryCacheKey,
  queryCacheOptions,
} from './query-embedding-cache';

/** A provider that counts its calls and can be told to fail or to wait. */
class FakeProvider implements EmbeddingProvider {
  readonly model = 'fake-model';
  readonly dimension = 4;
  queries: string[] = [];
  documents: string[][] = [];
  failWith?: Error;
  gate?: Promise<void>;

  async embedQuery(text: string): Promise<Float32Array> {
    this.queries.push(text);
    if (this.gate) await this.gate;
    if (this.failWith) throw this.failWith;
    return new Float32Array([text.length, 0, 0, 1]);
  }

  embedDocuments(texts: string[]): Promise<Float32Array[]> {
    this.documents.push(texts);
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve(texts.map(() => new Float32Array([1, 0, 0, 0])));
  }
}

async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const value = (
    metric?.values as { value: number; labels: Record<string, string | number> }[] | undefined
  )?.find((v) => Object.entries(labels).every(([key, expected]) => v.labels[key] === expected));
  return value?.value ?? NaN;
}

describe('the LRU of query embeddings (lru-cache with queryCacheOptions)', () => {
  let clock = 0;
  const cache = (maxSize: number, ttlMs = 1000) =>
    new LRUCache<string, string>(queryCacheOptions({ maxSize, ttlMs, now: () => clock }));

  beforeEach(() => {
    clock = 1_000;
  });

  it('evicts the least recently used entry beyond its size; a hit makes an entry recent', () => {
    const c = cache(2);
    c.set('a', 'A');
    c.set('b', 'B');
    expect(c.get('a')).toBe('A');
    c.set('c', 'C');
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('A');
    expect(c.get('c')).toBe('C');
    expect(c.size).toBe(2);
  });

  it('overwriting a key refreshes it and does not grow the cache', () => {
    const c = cache(2);
    c.set('a', 'A');
    c.set('b', 'B');
    c.set('a', 'A2');
    c.set('c', 'C');
    expect(c.get('a')).toBe('A2');
    expect(c.get('b')).toBeUndefined();
    expect(c.size).toBe(2);
  });

  it('forgets entries when their time to live is over (counted from when they were stored)', () => {
    const c = cache(10, 1000);
    c.set('a', 'A');
    clock += 999;
    expect(c.get('a')).toBe('A');
    clock += 1;
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });
});

describe('query cache keys', () => {
  it('normalises white space and Unicode composition, keeps case and accents', () => {
    expect(normaliseQueryText('  Ski \t in\n  Zermatt ')).toBe('Ski in Zermatt');
    expect(normaliseQueryText('Gene\u0300ve')).toBe('Genève');
    expect(normaliseQueryText('GENÈVE')).not.toBe(normaliseQueryText('genève'));
  });

  it('keys on model, dimension and text', () => {
    const keys = new Set([
      queryCacheKey('m1', 384, 'paris'),
      queryCacheKey('m2', 384, 'paris'),
      queryCacheKey('m1', 768, 'paris'),
      queryCacheKey('m1', 384, 'Paris'),
      queryCacheKey('m1', 3840, ''),
      queryCacheKey('m1', 384, '0'),
    ]);
    expect(keys.size).toBe(6);
  });
});

describe('CachedEmbeddingProvider', () => {
  let clock: number;
  let registry: Registry;
  let metrics: EmbeddingMetrics;
  let inner: FakeProvider;
  let provider: CachedEmbeddingProvider;
  const lookups = (result: string) =>
    metricValue(registry, 'search_query_embedding_cache_lookups_total', { result });
  const calls = (path: string, outcome: string) =>
    metricValue(registry, 'search_embedding_calls_total', { path, outcome });

  beforeEach(() => {
    // Not 0: lru-cache reads an entry stored at time 0 as one without a time to live.
    clock = 1_000;
    registry = new Registry();
    metrics = new EmbeddingMetrics(registry);
    inner = new FakeProvider();
    provider = new CachedEmbeddingProvider(inner, {
      cacheSize: 2,
      cacheTtlMs: 1000,
      metrics,
      now: () => clock,
    });
  });

  it('keeps model and dimension of the provider it wraps', () => {
    expect(provider.model).toBe('fake-model');
    expect(provider.dimension).toBe(4);
  });

  it('embeds a query once, then answers from the cache (equal texts after normalisation included)', async () => {
    const first = await provider.embedQuery('Lake  Como ');
    const second = await provider.embedQuery('Lake Como');
    expect(Array.from(second)).toEqual(Array.from(first));
    expect(inner.queries).toEqual(['Lake Como']);
    expect(await lookups('miss')).toBe(1);
    expect(await lookups('hit')).toBe(1);
    expect(await calls('query', 'ok')).toBe(1);
    expect(await metricValue(registry, 'search_query_embedding_cache_entries', {})).toBe(1);
  });

  it('returns copies: a caller changing its vector does not change the cache', async () => {
    const first = await provider.embedQuery('Rome');
    first[0] = 99;
    expect((await provider.embedQuery('Rome'))[0]).toBe(4);
  });

  it('evicts by LRU and expires by TTL', async () => {
    await provider.embedQuery('a');
    await provider.embedQuery('bb');
    await provider.embedQuery('ccc');
    await provider.embedQuery('a');
    expect(inner.queries).toEqual(['a', 'bb', 'ccc', 'a']);
    clock += 1000;
    await provider.embedQuery('a');
    await provider.embedQuery('ccc');
    expect(inner.queries).toEqual(['a', 'bb', 'ccc', 'a', 'a', 'ccc']);
    expect(provider.cacheSize).toBe(2);
  });

  it('shares one call between concurrent identical queries', async () => {
    let open!: () => void;
    inner.gate = new Promise((resolve) => (open = resolve));
    const answers = Promise.all([
      provider.embedQuery('Oslo'),
      provider.embedQuery(' Oslo'),
      provider.embedQuery('Bergen'),
    ]);
    open();
    const [a, b, c] = await answers;
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(a).not.toBe(b);
    expect(c[0]).toBe(6);
    expect(inner.queries).toEqual(['Oslo', 'Bergen']);
  });

  it('never caches a failure and counts it as unavailable', async () => {
    inner.failWith = new EmbeddingUnavailableError('down');
    await expect(provider.embedQuery('Nice')).rejects.toThrow(EmbeddingUnavailableError);
    await expect(provider.embedQuery('Nice')).rejects.toThrow('down');
    inner.failWith = undefined;
    await expect(provider.embedQuery('Nice')).resolves.toHaveLength(4);
    expect(inner.queries).toHaveLength(3);
    expect(await calls('query', 'unavailable')).toBe(2);
    inner.failWith = new Error('a bug');
    await expect(provider.embedQuery('Lyon')).rejects.toThrow('a bug');
    expect(await calls('query', 'error')).toBe(1);
  });

  it('passes documents straight through and counts them', async () => {
    await expect(provider.embedDocuments(['x', 'y'])).resolves.toHaveLength(2);
    await expect(provider.embedDocuments(['x', 'y'])).resolves.toHaveLength(2);
    expect(inner.documents).toEqual([
      ['x', 'y'],
      ['x', 'y'],
    ]);
    expect(await calls('documents', 'ok')).toBe(2);
    inner.failWith = new EmbeddingUnavailableError('down');
    await expect(provider.embedDocuments(['x'])).rejects.toThrow('down');
    expect(await calls('documents', 'unavailable')).toBe(1);
  });

  it('with a size of 0, calls the provider every time and keeps nothing', async () => {
    const uncached = new CachedEmbeddingProvider(inner, { cacheSize: 0, cacheTtlMs: 1000 });
    await uncached.embedQuery('Bern');
    await uncached.embedQuery('Bern');
    expect(inner.queries).toEqual(['Bern', 'Bern']);
    expect(uncached.cacheSize).toBe(0);
  });

  it('serves the built-in provider with the same vectors', async () => {
    const builtin = new BuiltinEmbeddingProvider(384);
    const cached = new CachedEmbeddingProvider(builtin, { cacheSize: 10, cacheTtlMs: 1000 });
    const expected = Array.from(await builtin.embedQuery('Weekend in Wien'));
    expect(Array.from(await cached.embedQuery('Weekend in Wien'))).toEqual(expected);
    expect(Array.from(await cached.embedQuery('Weekend  in Wien'))).toEqual(expected);
    expect(cached.cacheSize).toBe(1);
    expect(cached.model).toBe(builtin.model);
  });
});
