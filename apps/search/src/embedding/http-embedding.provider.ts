import { Logger } from '@nestjs/common';
import {
  DelegateBackoff,
  halfJitterGenerator,
  handleWhen,
  isBrokenCircuitError,
  retry,
  timeout,
  TimeoutStrategy,
} from 'cockatiel';
import type { IRetryBackoffContext, TimeoutPolicy } from 'cockatiel';
import { CircuitBreaker } from './circuit-breaker';
import type { CircuitState } from './circuit-breaker';
import type { EmbeddingMetrics, EmbeddingPath, EmbeddingRequestOutcome } from './embedding-metrics';
import type { EmbeddingProvider } from './embedding-provider';
import { EmbeddingUnavailableError } from './embedding-unavailable.error';

export interface HttpEmbeddingOptions {
  /** EMBEDDING_URL: the server's base URL, see `embeddingsEndpoint`. */
  url: string;
  /** EMBEDDING_MODEL: sent as `model`; goes into every content hash. */
  model: string;
  /** EMBEDDING_DIMENSION: every vector must have it. */
  dimension: number;
  /** EMBEDDING_API_KEY: sent as `Authorization: Bearer …` when set; never logged. */
  apiKey?: string;
  /** EMBEDDING_SEND_DIMENSIONS: also send `dimensions` (OpenAI `text-embedding-3-*` can shorten vectors). */
  sendDimensions?: boolean;
  /** EMBEDDING_TIMEOUT_MS: the one attempt of a query. */
  queryTimeoutMs: number;
  /** EMBEDDING_BATCH_TIMEOUT_MS: each attempt of a batch of documents. */
  batchTimeoutMs: number;
  /** EMBEDDING_BATCH_SIZE: documents per request. */
  batchSize: number;
  /** EMBEDDING_MAX_RETRIES: retries of a batch after the first attempt. */
  maxRetries: number;
  /** EMBEDDING_CIRCUIT_FAILURES: consecutive failures that open the circuit. */
  circuitFailures: number;
  /** EMBEDDING_CIRCUIT_COOLDOWN_MS: how long it stays open before a trial. */
  circuitCooldownMs: number;
  /** First back-off delay of a batch retry (doubled on each retry, with jitter). */
  retryBaseDelayMs?: number;
  /** Longest back-off delay. */
  retryMaxDelayMs?: number;
  /** A `Retry-After` longer than this ends the retries at once (the server will not be back soon). */
  maxRetryAfterMs?: number;
  metrics?: EmbeddingMetrics;
  logger?: Pick<Logger, 'warn' | 'error' | 'log'>;
}

export const DEFAULT_RETRY_BASE_DELAY_MS = 250;
export const DEFAULT_RETRY_MAX_DELAY_MS = 10_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/**
 * `POST <EMBEDDING_URL>/v1/embeddings` of an OpenAI-compatible server (OpenAI, Ollama, vLLM,
 * text-embeddings-inference, LiteLLM ...). The base URL may be given with or without the `/v1`
 * suffix, or as the full `…/embeddings` endpoint: `http://ollama:11434`, `http://ollama:11434/v1`,
 * `https://api.openai.com/v1/` and `https://gw.example/openai/v1/embeddings` all work.
 */
export function embeddingsEndpoint(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`EMBEDDING_URL must be an http(s) URL, not ${url.protocol}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/embeddings$/.test(path)) url.pathname = path;
  else if (/\/v1$/.test(path)) url.pathname = `${path}/embeddings`;
  else url.pathname = `${path}/v1/embeddings`;
  return url;
}

/** The URL as it may appear in messages and logs: no user name, password or query string. */
function displayUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** Scales a vector to length 1 (in double precision). A zero or non-finite vector is malformed. */
export function l2Normalise(values: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] * values[i];
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) {
    throw new MalformedAnswer(norm === 0 ? 'a zero vector cannot be normalised' : 'a vector is not finite');
  }
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) vector[i] = values[i] / norm;
  return vector;
}

/** An answer that is not `{ data: [{ embedding: number[dimension], index }] }` for every input. */
export class MalformedAnswer extends Error {
  override readonly name = 'MalformedAnswer';
}

/**
 * The vectors of an OpenAI embeddings answer, in input order (by `index`; in array order when no
 * item carries one), checked (one per input, numbers only, the configured dimension) and L2-normalised.
 */
export function parseEmbeddingResponse(body: unknown, inputs: number, dimension: number): Float32Array[] {
  if (typeof body !== 'object' || body === null || !('data' in body) || !Array.isArray(body.data)) {
    throw new MalformedAnswer('no `data` array');
  }
  const data = body.data as unknown[];
  if (data.length !== inputs) {
    throw new MalformedAnswer(`${data.length} embeddings for ${inputs} inputs`);
  }
  const indexed = data.some((item) => typeof item === 'object' && item !== null && 'index' in item);
  const vectors = new Array<Float32Array | undefined>(inputs);
  data.forEach((item, position) => {
    if (typeof item !== 'object' || item === null)
      throw new MalformedAnswer(`data[${position}] is not an object`);
    const { embedding, index } = item as { embedding?: unknown; index?: unknown };
    const at = indexed ? index : position;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= inputs) {
      throw new MalformedAnswer(`data[${position}].index is ${JSON.stringify(index) ?? 'missing'}`);
    }
    if (vectors[at]) throw new MalformedAnswer(`index ${at} appears twice`);
    if (!Array.isArray(embedding)) {
      throw new MalformedAnswer(
        typeof embedding === 'string'
          ? `data[${position}].embedding is a string (base64?), not an array of numbers`
          : `data[${position}].embedding is not an array`,
      );
    }
    if (embedding.length !== dimension) {
      throw new MalformedAnswer(
        `data[${position}].embedding has dimension ${embedding.length}, EMBEDDING_DIMENSION is ${dimension}`,
      );
    }
    if (!embedding.every((value) => typeof value === 'number' && Number.isFinite(value))) {
      throw new MalformedAnswer(`data[${position}].embedding holds something else than finite numbers`);
    }
    vectors[at] = l2Normalise(embedding as number[]);
  });
  return vectors as Float32Array[];
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** One failed attempt, before it becomes an EmbeddingUnavailableError. */
class AttemptFailure extends Error {
  constructor(
    readonly outcome: EmbeddingRequestOutcome,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The server's `Retry-After`, when the failed attempt came with one. */
function retryAfterOf({ result }: IRetryBackoffContext<unknown>): number | undefined {
  return 'error' in result && result.error instanceof AttemptFailure ? result.error.retryAfterMs : undefined;
}

/**
 * The OpenAI-compatible HTTP embedding provider, its resilience from cockatiel.
 *
 * - Documents (reindex): sent in batches of `batchSize`, one batch after the other; each attempt
 *   has `batchTimeoutMs`; network errors, timeouts, 429 and 5xx are retried up to `maxRetries`
 *   times (`retry`) with exponential back-off and jitter, or after the server's `Retry-After`. Other
 *   4xx and malformed answers are not retried (they would fail the same way).
 * - Queries: one attempt with the short `queryTimeoutMs`, no retry: a search must answer quickly.
 * - Attempts run under a cooperative `timeout`: its signal aborts the request, body included.
 * - Both share one circuit breaker (circuit-breaker.ts): `circuitFailures` failed requests in a row
 *   open it, and every call then fails at once without a request for `circuitCooldownMs`; then one
 *   trial request decides (success closes it, failure opens it again). A 429 neither opens nor
 *   closes it.
 * - Every failure surfaces as EmbeddingUnavailableError. Vectors are checked and L2-normalised.
 */
export class HttpEmbeddingProvider implements EmbeddingProvider {
  readonly model: string;
  readonly dimension: number;
  readonly endpoint: URL;
  readonly breaker: CircuitBreaker;
  /** Request headers; a private field, so the key never shows in `inspect`, JSON or logs. */
  readonly #headers: Record<string, string>;
  readonly #apiKey?: string;
  private readonly options: Omit<HttpEmbeddingOptions, 'apiKey'>;
  private readonly logger: Pick<Logger, 'warn' | 'error' | 'log'>;
  private readonly timeouts: Record<EmbeddingPath, { ms: number; policy: TimeoutPolicy }>;

  constructor({ apiKey, ...options }: HttpEmbeddingOptions) {
    if (!options.model) throw new Error('EMBEDDING_MODEL is required by the http embedding provider');
    if (!(options.batchSize >= 1)) throw new Error('the embedding batch size must be at least 1');
    this.options = options;
    this.model = options.model;
    this.dimension = options.dimension;
    this.endpoint = embeddingsEndpoint(options.url);
    this.#apiKey = apiKey || undefined;
    this.#headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {}),
    };
    this.logger = options.logger ?? new Logger('HttpEmbeddingProvider');
    const timeoutOf = (ms: number) => ({ ms, policy: timeout(ms, TimeoutStrategy.Cooperative) });
    this.timeouts = {
      query: timeoutOf(options.queryTimeoutMs),
      documents: timeoutOf(options.batchTimeoutMs),
    };
    this.breaker = new CircuitBreaker({
      failureThreshold: options.circuitFailures,
      cooldownMs: options.circuitCooldownMs,
      isFailure: (error) => !(error instanceof AttemptFailure && error.outcome === 'rate_limited'),
      onStateChange: (state) => this.onCircuitChange(state),
    });
    options.metrics?.setCircuitState('closed');
  }

  async embedQuery(text: string): Promise<Float32Array> {
    try {
      const [vector] = await this.request('query', [text]);
      return vector;
    } catch (error) {
      throw this.unavailable(error as AttemptFailure, 'query', 1);
    }
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.options.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.options.batchSize))));
    }
    return vectors;
  }

  /** The back-off before retry number `n` (0-based): base·2^n capped, the upper half jittered. */
  backoffMs(n: number): number {
    const initialDelay = this.options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
    const maxDelay = this.options.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS;
    return halfJitterGenerator(n, { generator: halfJitterGenerator, initialDelay, maxDelay, exponent: 2 })[0];
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    const maxRetryAfter = this.options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    const policy = retry(
      handleWhen(
        (error) =>
          error instanceof AttemptFailure &&
          error.retryable &&
          !(error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfter),
      ),
      {
        maxAttempts: this.options.maxRetries,
        backoff: new DelegateBackoff(
          (context: IRetryBackoffContext<unknown>) =>
            retryAfterOf(context) ?? this.backoffMs(context.attempt - 1),
        ),
      },
    );
    policy.onRetry((retrying) =>
      this.logger.warn(
        `Embedding batch of ${texts.length} failed (attempt ${retrying.attempt} of ${this.options.maxRetries + 1}): ` +
          `${'error' in retrying ? retrying.error.message : ''}; retrying in ${retrying.delay} ms`,
      ),
    );
    let attempts = 0;
    try {
      return await policy.execute(() => {
        attempts++;
        return this.request('documents', texts);
      });
    } catch (error) {
      throw this.unavailable(error as AttemptFailure, 'documents', attempts);
    }
  }

  /** One HTTP request through the circuit breaker, under the timeout of its path; throws AttemptFailure. */
  private async request(path: EmbeddingPath, texts: string[]): Promise<Float32Array[]> {
    const { ms, policy } = this.timeouts[path];
    try {
      return await this.breaker.execute(() =>
        policy.execute(({ signal }) => this.measured(path, () => this.send(texts, signal, ms))),
      );
    } catch (error) {
      if (!isBrokenCircuitError(error)) throw error;
      this.options.metrics?.requests.inc({ path, outcome: 'circuit_open' });
      throw new AttemptFailure(
        'circuit_open',
        `the circuit breaker is open after ${this.breaker.failures} failed requests in a row ` +
          `(next trial in ${Math.max(0, this.breaker.remainingCooldownMs)} ms)`,
        false,
      );
    }
  }

  /** Counts and times one request; any error becomes an AttemptFailure. */
  private async measured(path: EmbeddingPath, send: () => Promise<Float32Array[]>): Promise<Float32Array[]> {
    const metrics = this.options.metrics;
    const stop = metrics?.requestDuration.startTimer({ path });
    let outcome: EmbeddingRequestOutcome = 'ok';
    try {
      return await send();
    } catch (error) {
      const failure =
        error instanceof AttemptFailure
          ? error
          : new AttemptFailure('unreachable', `unexpected error: ${String(error)}`, true, undefined, error);
      outcome = failure.outcome;
      throw failure;
    } finally {
      metrics?.requests.inc({ path, outcome });
      stop?.({ outcome });
    }
  }

  private async send(texts: string[], signal: AbortSignal, timeoutMs: number): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: this.model, input: texts };
    if (this.options.sendDimensions) body.dimensions = this.dimension;
    let status: number;
    let retryAfter: string | null;
    let text: string;
    try {
      const response = await fetch(this.endpoint, {
        method: 'POST',
        headers: this.#headers,
        body: JSON.stringify(body),
        signal,
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (error) {
      if (signal.aborted) {
        throw new AttemptFailure('timeout', `no answer within ${timeoutMs} ms`, true, undefined, error);
      }
      throw new AttemptFailure(
        'unreachable',
        `unreachable (${networkReason(error)})`,
        true,
        undefined,
        error,
      );
    }
    if (status < 200 || status > 299) {
      const detail = `answered HTTP ${status}${this.snippet(text)}`;
      const retryAfterMs = parseRetryAfter(retryAfter, Date.now());
      if (status === 429) throw new AttemptFailure('rate_limited', detail, true, retryAfterMs);
      if (status >= 500) throw new AttemptFailure('server_error', detail, true, retryAfterMs);
      throw new AttemptFailure('client_error', detail, status === 408);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new AttemptFailure(
        'malformed',
        `malformed answer: not JSON${this.snippet(text)}`,
        false,
        undefined,
        error,
      );
    }
    try {
      return parseEmbeddingResponse(json, texts.length, this.dimension);
    } catch (error) {
      throw new AttemptFailure(
        'malformed',
        `malformed answer: ${(error as Error).message}`,
        false,
        undefined,
        error,
      );
    }
  }

  /** The start of an answer's body for a message, with the API key masked should the server echo it. */
  private snippet(text: string): string {
    let shown = text.trim().replace(/\s+/g, ' ').slice(0, 200);
    if (this.#apiKey) shown = shown.split(this.#apiKey).join('***');
    return shown ? `: ${shown}` : '';
  }

  private unavailable(
    failure: AttemptFailure,
    path: EmbeddingPath,
    attempts: number,
  ): EmbeddingUnavailableError {
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    return new EmbeddingUnavailableError(
      `Embedding service ${displayUrl(this.endpoint)} (model ${this.model}, ${path}) failed${tries}: ${failure.message}`,
      failure.cause ?? failure,
    );
  }

  private onCircuitChange(state: CircuitState): void {
    this.options.metrics?.setCircuitState(state);
    if (state === 'open') {
      this.logger.error(
        `Embedding service ${displayUrl(this.endpoint)} failing: circuit open for ${this.options.circuitCooldownMs} ms ` +
          `(${this.breaker.failures} failed requests in a row)`,
      );
    } else if (state === 'closed') {
      this.logger.log(`Embedding service ${displayUrl(this.endpoint)} answers again: circuit closed`);
    }
  }
}

/** `ECONNREFUSED`, `ENOTFOUND` … from undici's `fetch failed` (the code sits in `cause`). */
function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return error instanceof Error ? error.message : String(error);
}
