import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { CircuitState } from './circuit-breaker';

export type EmbeddingPath = 'query' | 'documents';
export type EmbeddingCallOutcome = 'ok' | 'unavailable' | 'error';
/** What became of one HTTP request to the embedding service (or of one refused by the open circuit). */
export type EmbeddingRequestOutcome =
  | 'ok'
  | 'timeout'
  | 'unreachable'
  | 'rate_limited'
  | 'server_error'
  | 'client_error'
  | 'malformed'
  | 'circuit_open';

const PATHS: EmbeddingPath[] = ['query', 'documents'];
const CALL_OUTCOMES: EmbeddingCallOutcome[] = ['ok', 'unavailable', 'error'];
const REQUEST_OUTCOMES: EmbeddingRequestOutcome[] = [
  'ok',
  'timeout',
  'unreachable',
  'rate_limited',
  'server_error',
  'client_error',
  'malformed',
  'circuit_open',
];
const CIRCUIT_VALUES: Record<CircuitState, number> = { closed: 0, half_open: 1, open: 2 };

/**
 * Metrics of the embedding providers, in the service's registry (`MetricsService.registry`,
 * GET /metrics): calls to the provider by path (query | documents) and outcome, with durations (every
 * provider, cache hits excluded), HTTP requests of the HTTP provider (each attempt of a retried
 * batch counts), the state of its circuit breaker, and the query cache's lookups and size.
 */
export class EmbeddingMetrics {
  readonly calls: Counter<'path' | 'outcome'>;
  readonly callDuration: Histogram<'path' | 'outcome'>;
  readonly requests: Counter<'path' | 'outcome'>;
  readonly requestDuration: Histogram<'path' | 'outcome'>;
  readonly circuitState: Gauge;
  readonly cacheLookups: Counter<'result'>;
  readonly cacheEntries: Gauge;
  private cache?: { readonly size: number };

  constructor(registry: Registry) {
    const registers = [registry];
    this.calls = new Counter({
      name: 'search_embedding_calls_total',
      help: 'Calls to the embedding provider by path (query, documents) and outcome (ok, unavailable, error); cached queries are not calls.',
      labelNames: ['path', 'outcome'],
      registers,
    });
    this.callDuration = new Histogram({
      name: 'search_embedding_call_duration_seconds',
      help: 'Duration of calls to the embedding provider (retries included) by path and outcome.',
      labelNames: ['path', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.requests = new Counter({
      name: 'search_embedding_http_requests_total',
      help: 'HTTP requests to the embedding service by path and outcome (ok, timeout, unreachable, rate_limited, server_error, client_error, malformed; circuit_open: refused without a request).',
      labelNames: ['path', 'outcome'],
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'search_embedding_http_request_duration_seconds',
      help: 'Duration of single HTTP requests to the embedding service by path and outcome.',
      labelNames: ['path', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.circuitState = new Gauge({
      name: 'search_embedding_circuit_state',
      help: 'Circuit breaker of the HTTP embedding provider: 0 closed, 1 half-open, 2 open.',
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'search_query_embedding_cache_lookups_total',
      help: 'Lookups in the cache of query embeddings by result (hit, miss).',
      labelNames: ['result'],
      registers,
    });
    this.cacheEntries = new Gauge({
      name: 'search_query_embedding_cache_entries',
      help: 'Query embeddings in the cache.',
      registers,
      collect: () => this.cacheEntries.set(this.cache?.size ?? 0),
    });
    for (const path of PATHS) {
      for (const outcome of CALL_OUTCOMES) this.calls.inc({ path, outcome }, 0);
      for (const outcome of REQUEST_OUTCOMES) this.requests.inc({ path, outcome }, 0);
    }
    for (const result of ['hit', 'miss']) this.cacheLookups.inc({ result }, 0);
    this.circuitState.set(0);
  }

  /** The cache whose size `search_query_embedding_cache_entries` reports. */
  watchCache(cache: { readonly size: number }): void {
    this.cache = cache;
  }

  setCircuitState(state: CircuitState): void {
    this.circuitState.set(CIRCUIT_VALUES[state]);
  }
}
