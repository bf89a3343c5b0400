import { LRUCache } from 'lru-cache';
import type { EmbeddingProvider } from './embedding-provider';
import type { EmbeddingMetrics } from './embedding-metrics';
import { EmbeddingUnavailableError } from './embedding-unavailable.error';

export interface QueryCacheOptions {
  /** Entries kept at most (at least 1); the least recently used one goes first. */
  maxSize: number;
  /** How long an entry lives after it was stored, in milliseconds. */
  ttlMs: number;
  now?: () => number;
}

/** The lru-cache settings of the query cache: LRU, each entry gone `ttlMs` after it was stored (reads do not extend it). */
export function queryCacheOptions({ maxSize, ttlMs, now = Date.now }: QueryCacheOptions) {
  return {
    max: maxSize,
    // lru-cache serves an entry while its age is at most `ttl`; ours is gone once its age reaches
    // `ttlMs`. On a millisecond clock that is a `ttl` of one less.
    ttl: Math.max(1, ttlMs - 1),
    perf: { now },
    // Reads the clock at every lookup instead of once per millisecond.
    ttlResolution: 0,
  } satisfies LRUCache.Options<string, never, unknown>;
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
 * with a cache of recent query embeddings (lru-cache: LRU with a time to live; its `fetch` shares
 * one call between concurrent identical queries and never caches a failure) and counts calls,
 * outcomes and durations on both paths. Documents pass straight through. Returned vectors are
 * copies: callers may not corrupt the cache.
 */
export class CachedEmbeddingProvider implements EmbeddingProvider {
  /** None when QUERY_EMBEDDING_CACHE_SIZE is 0. */
  private readonly cache?: LRUCache<string, Float32Array, string>;

  constructor(
    readonly inner: EmbeddingProvider,
    private readonly options: CachedEmbeddingProviderOptions,
  ) {
    if (options.cacheSize > 0) {
      this.cache = new LRUCache<string, Float32Array, string>({
        ...queryCacheOptions({ maxSize: options.cacheSize, ttlMs: options.cacheTtlMs, now: options.now }),
        fetchMethod: (_key, _stale, { context }) =>
          this.measured('query', () => this.inner.embedQuery(context)),
        // A query whose entry is evicted while its call runs still gets its vector.
        ignoreFetchAbort: true,
      });
      options.metrics?.watchCache(this.cache);
    }
  }

  get model(): string {
    return this.inner.model;
  }

  get dimension(): number {
    return this.inner.dimension;
  }

  /** Entries in the query cache now. */
  get cacheSize(): number {
    return this.cache?.size ?? 0;
  }

  clearCache(): void {
    this.cache?.clear();
  }

  embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return this.measured('documents', () => this.inner.embedDocuments(texts));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const normalised = normaliseQueryText(text);
    const lookups = this.options.metrics?.cacheLookups;
    if (!this.cache) {
      lookups?.inc({ result: 'miss' });
      return this.measured('query', () => this.inner.embedQuery(normalised));
    }
    const status: LRUCache.Status<string, Float32Array, string> = {};
    const vector = this.cache.forceFetch(queryCacheKey(this.inner.model, this.inner.dimension, normalised), {
      context: normalised,
      status,
    });
    // `status.fetch` is set before the call returns: a query waiting for the same key's call is a miss.
    lookups?.inc({ result: status.fetch === 'hit' ? 'hit' : 'miss' });
    return (await vector).slice();
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
