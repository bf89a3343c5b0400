import type { EmbeddingProvider } from './embedding-provider';
import type { EmbeddingMetrics } from './embedding-metrics';
import { EmbeddingUnavailableError } from './embedding-unavailable.error';

export interface LruCacheOptions {
  /** Entries kept at most; the least recently used one goes first. 0 keeps nothing. */
  maxSize: number;
  /** How long an entry lives after it was stored, in milliseconds. */
  ttlMs: number;
  now?: () => number;
}

/** A small LRU map with a time to live (a `Map` keeps insertion order; a hit moves its entry to the end). */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly now: () => number;

  constructor(private readonly options: LruCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.options.maxSize <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxSize) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The text a query is embedded and cached as: Unicode NFC, white space trimmed and collapsed.
 * Case and accents are kept (a language model may tell them apart); the embedded text is this one,
 * so a cached vector is exactly the vector of its key.
 */
export function normaliseQueryText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** Cache key: the model and dimension (the vector's identity, as in the content hash) and the normalised text. */
export function queryCacheKey(model: string, dimension: number, normalisedText: string): string {
  return `${model}\u0000${dimension}\u0000${normalisedText}`;
}

export interface CachedEmbeddingProviderOptions {
  /** QUERY_EMBEDDING_CACHE_SIZE: 0 disables the cache. */
  cacheSize: number;
  /** QUERY_EMBEDDING_CACHE_TTL_MS. */
  cacheTtlMs: number;
  metrics?: EmbeddingMetrics;
  now?: () => number;
}

/**
 * The provider the rest of the service sees (behind EMBEDDING_PROVIDER): wraps the configured one
 * with a cache of recent query embeddings (LRU with a time to live; concurrent identical queries
 * share one call; failures are never cached) and counts calls, outcomes and durations on both
 * paths. Documents pass straight through. Returned vectors are copies: callers may not corrupt the
 * cache.
 */
export class CachedEmbeddingProvider implements EmbeddingProvider {
  private readonly cache: LruCache<Float32Array>;
  private readonly pending = new Map<string, Promise<Float32Array>>();

  constructor(
    readonly inner: EmbeddingProvider,
    private readonly options: CachedEmbeddingProviderOptions,
  ) {
    this.cache = new LruCache({ maxSize: options.cacheSize, ttlMs: options.cacheTtlMs, now: options.now });
    options.metrics?.watchCache(this.cache);
  }

  get model(): string {
    return this.inner.model;
  }

  get dimension(): number {
    return this.inner.dimension;
  }

  /** Entries in the query cache now. */
  get cacheSize(): number {
    return this.cache.size;
  }

  clearCache(): void {
    this.cache.clear();
  }

  embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return this.measured('documents', () => this.inner.embedDocuments(texts));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const normalised = normaliseQueryText(text);
    const key = queryCacheKey(this.inner.model, this.inner.dimension, normalised);
    const cached = this.cache.get(key);
    if (cached) {
      this.options.metrics?.cacheLookups.inc({ result: 'hit' });
      return cached.slice();
    }
    this.options.metrics?.cacheLookups.inc({ result: 'miss' });
    let call = this.pending.get(key);
    if (!call) {
      call = this.measured('query', () => this.inner.embedQuery(normalised)).then((vector) => {
        this.cache.set(key, vector);
        return vector;
      });
      const shared = call;
      this.pending.set(key, shared);
      const forget = () => {
        if (this.pending.get(key) === shared) this.pending.delete(key);
      };
      void shared.then(forget, forget);
    }
    return (await call).slice();
  }

  private async measured<T>(path: 'query' | 'documents', call: () => Promise<T>): Promise<T> {
    const metrics = this.options.metrics;
    const stop = metrics?.callDuration.startTimer({ path });
    try {
      const result = await call();
      metrics?.calls.inc({ path, outcome: 'ok' });
      stop?.({ outcome: 'ok' });
      return result;
    } catch (error) {
      const outcome = error instanceof EmbeddingUnavailableError ? 'unavailable' : 'error';
      metrics?.calls.inc({ path, outcome });
      stop?.({ outcome });
      throw error;
    }
  }
}
