import { Module } from '@nestjs/common';
import { MetricsModule, MetricsService } from '@rt/platform';
import { BuiltinEmbeddingProvider } from './builtin-embedding.provider';
import { EMBEDDING_PROVIDER, EmbeddingProvider } from './embedding-provider';
import { EmbeddingMetrics } from './embedding-metrics';
import { EmbeddingSettings } from './embedding.settings';
import { HttpEmbeddingProvider } from './http-embedding.provider';
import { CachedEmbeddingProvider } from './query-embedding-cache';

/** The provider EMBEDDING_PROVIDER names, bare (no cache). */
export function createEmbeddingProvider(
  settings: EmbeddingSettings,
  metrics?: EmbeddingMetrics,
): EmbeddingProvider {
  switch (settings.EMBEDDING_PROVIDER) {
    case 'builtin':
      return new BuiltinEmbeddingProvider(settings.EMBEDDING_DIMENSION);
    case 'http':
      return new HttpEmbeddingProvider({
        url: settings.EMBEDDING_URL ?? '',
        model: settings.EMBEDDING_MODEL ?? '',
        dimension: settings.EMBEDDING_DIMENSION,
        apiKey: settings.EMBEDDING_API_KEY,
        sendDimensions: settings.EMBEDDING_SEND_DIMENSIONS,
        queryTimeoutMs: settings.EMBEDDING_TIMEOUT_MS,
        batchTimeoutMs: settings.EMBEDDING_BATCH_TIMEOUT_MS,
        batchSize: settings.EMBEDDING_BATCH_SIZE,
        maxRetries: settings.EMBEDDING_MAX_RETRIES,
        circuitFailures: settings.EMBEDDING_CIRCUIT_FAILURES,
        circuitCooldownMs: settings.EMBEDDING_CIRCUIT_COOLDOWN_MS,
        metrics,
      });
    default:
      throw new Error(`Unknown EMBEDDING_PROVIDER ${String(settings.EMBEDDING_PROVIDER)}`);
  }
}

/** The configured provider behind the query-embedding cache and the embedding metrics. */
export function createCachedEmbeddingProvider(
  settings: EmbeddingSettings,
  metrics?: EmbeddingMetrics,
): CachedEmbeddingProvider {
  return new CachedEmbeddingProvider(createEmbeddingProvider(settings, metrics), {
    cacheSize: settings.QUERY_EMBEDDING_CACHE_SIZE,
    cacheTtlMs: settings.QUERY_EMBEDDING_CACHE_TTL_MS,
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
      inject: [EmbeddingSettings, EmbeddingMetrics],
      useFactory: createCachedEmbeddingProvider,
    },
  ],
  exports: [EMBEDDING_PROVIDER],
})
export class EmbeddingModule {}
