import { IsString, IsUrl, ValidateIf } from 'class-validator';
import { BooleanSetting, IntSetting, OneOfSetting, StringSetting } from '@rt/platform';

export const EMBEDDING_PROVIDERS = ['builtin', 'http'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/** The embedding provider and the query-embedding cache (EmbeddingModule), validated at start-up. */
export class EmbeddingSettings {
  /**
   * `builtin`: the offline hashed n-gram provider (lexical, no download); `http`: an
   * OpenAI-compatible `/v1/embeddings` server (EMBEDDING_URL, EMBEDDING_MODEL …; see
   * docs/search-embeddings.md).
   */
  @OneOfSetting(EMBEDDING_PROVIDERS)
  EMBEDDING_PROVIDER: EmbeddingProviderName = 'builtin';

  /**
   * Dimension of the embeddings. The `embedding` column is `vector(384)` (migration
   * AddTravelOffers); another value needs a migration that changes the column (see
   * apps/search/README.md), and the service refuses to start until the two agree.
   */
  @IntSetting({ min: 8, max: 2000 })
  EMBEDDING_DIMENSION: number = 384;

  /**
   * Base URL of the OpenAI-compatible server (`http` provider; required then): with or without the
   * `/v1` suffix (`http://ollama:11434`, `https://api.openai.com/v1`), or the full `…/embeddings` URL.
   */
  @ValidateIf(
    (env: EmbeddingSettings) => env.EMBEDDING_PROVIDER === 'http' || env.EMBEDDING_URL !== undefined,
  )
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'], require_tld: false, allow_underscores: true },
    {
      message:
        'EMBEDDING_URL must be the http(s) base URL of an OpenAI-compatible server when EMBEDDING_PROVIDER is http',
    },
  )
  EMBEDDING_URL?: string;

  /** Model name sent to the server (`http` provider; required then). It goes into every content hash. */
  @ValidateIf(
    (env: EmbeddingSettings) => env.EMBEDDING_PROVIDER === 'http' || env.EMBEDDING_MODEL !== undefined,
  )
  @IsString({
    message: 'EMBEDDING_MODEL (the model name the server knows) is required when EMBEDDING_PROVIDER is http',
  })
  EMBEDDING_MODEL?: string;

  /** Sent as `Authorization: Bearer <key>` when set; never logged. */
  @StringSetting()
  EMBEDDING_API_KEY?: string;

  /** Also send `dimensions: EMBEDDING_DIMENSION` (OpenAI `text-embedding-3-*`; many servers refuse it). */
  @BooleanSetting()
  EMBEDDING_SEND_DIMENSIONS: boolean = false;

  /** Time given to the one attempt that embeds a search query, in milliseconds. */
  @IntSetting({ min: 10, max: 60_000 })
  EMBEDDING_TIMEOUT_MS: number = 1500;

  /** Time given to each attempt of a batch of documents (reindex), in milliseconds. */
  @IntSetting({ min: 10, max: 600_000 })
  EMBEDDING_BATCH_TIMEOUT_MS: number = 30_000;

  /** Documents per request during a reindex (text-embeddings-inference accepts 32 by default). */
  @IntSetting({ min: 1, max: 2048 })
  EMBEDDING_BATCH_SIZE: number = 32;

  /** Retries of a failed batch (network, timeout, 429, 5xx), with exponential back-off or `Retry-After`. */
  @IntSetting({ min: 0, max: 10 })
  EMBEDDING_MAX_RETRIES: number = 4;

  /** Failed requests in a row that open the circuit breaker (calls then fail at once). */
  @IntSetting({ min: 1 })
  EMBEDDING_CIRCUIT_FAILURES: number = 5;

  /** How long the circuit stays open before one trial request, in milliseconds. */
  @IntSetting({ min: 1 })
  EMBEDDING_CIRCUIT_COOLDOWN_MS: number = 30_000;

  /** Query embeddings kept in the LRU cache (0: no cache). */
  @IntSetting({ min: 0, max: 1_000_000 })
  QUERY_EMBEDDING_CACHE_SIZE: number = 1000;

  /** How long a cached query embedding lives, in milliseconds. */
  @IntSetting({ min: 1 })
  QUERY_EMBEDDING_CACHE_TTL_MS: number = 3_600_000;
}
