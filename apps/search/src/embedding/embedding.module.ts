import { Module } from '@nestjs/common';
import { MetricsModule, MetricsService } from '@rt/platform';
import { SEARCH_CONFIG } from '../config';
import type { SearchConfig } from '../config';
import { BuiltinEmbeddingProvider } from './builtin-embedding.provider';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from './embedding-provider';
import { EmbeddingMetrics } from './embedding-metrics';
import { HttpEmbeddingProvider } from './http-embedding.provider';
import { CachedEmbeddingProvider } from './query-embedding-cache';

/** The provider EMBEDDING_PROVIDER names, bare (no cache). */
export function createEmbeddingProvider(config: SearchConfig, metrics?: EmbeddingMetrics): EmbeddingProvider {
  switch (config.EMBEDDING_PROVIDER) {
    case 'builtin':
      return new BuiltinEmbeddingProvider(config.EMBEDDING_DIMENSION);
    case 'http':
      return new HttpEmbeddingProvider({
        url: config.EMBEDDING_URL ?? '',
        model: config.EMBEDDING_MODEL ?? '',
        dimension: config.EMBEDDING_DIMENSION,
        apiKey: config.EMBEDDING_API_KEY,
        sendDimensions: config.EMBEDDING_SEND_DIMENSIONS,
        queryTimeoutMs: config.EMBEDDING_TIMEOUT_MS,
        batchTimeoutMs: config.EMBEDDING_BATCH_TIMEOUT_MS,
        batchSize: config.EMBEDDING_BATCH_SIZE,
        maxRetries: config.EMBEDDING_MAX_RETRIES,
        circuitFailures: config.EMBEDDING_CIRCUIT_FAILURES,
        circuitCooldownMs: config.EMBEDDING_CIRCUIT_COOLDOWN_MS,
        metrics,
      });
    default:
      throw new Error(`Unknown EMBEDDING_PROVIDER ${String(config.EMBEDDING_PROVIDER)}`);
  }
}

/** The configured provider behind the query-embedding cache and the embedding metrics. */
export function createCachedEmbeddingProvider(
  config: SearchConfig,
  metrics?: EmbeddingMetrics,
): CachedEmbeddingProvider {
  return new CachedEmbeddingProvider(createEmbeddingProvider(config, metrics), {
    cacheSize: config.QUERY_EMBEDDING_CACHE_SIZE,
    cacheTtlMs: config.QUERY_EMBEDDING_CACHE_TTL_MS,
    metrics,
  });
}

/**
 * The configured embedding provider, behind the EMBEDDING_PROVIDER token: a CachedEmbeddingProvider
 * (query cache, call metrics) around the built-in or the HTTP provider. Every importer shares it,
 * so the reindex and the searches share one cache and one circuit breaker.
 */
@Module({
  imports: [MetricsModule],
  providers: [
    {
      provide: EmbeddingMetrics,
      inject: [MetricsService],
      useFactory: (metrics: MetricsService) => new EmbeddingMetrics(metrics.registry),
    },
    {
      provide: EMBEDDING_PROVIDER,
      inject: [SEARCH_CONFIG, EmbeddingMetrics],
      useFactory: createCachedEmbeddingProvider,
    },
  ],
  exports: [EMBEDDING_PROVIDER],
})
export class EmbeddingModule {}
