import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { BaseEnv, ConfigError, EnvBoolean, EnvFloat, EnvInt, EnvList, loadConfig } from '@rt/platform';

export const EMBEDDING_PROVIDERS = ['builtin', 'http'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/**
 * The fusion's defaults per embedding provider (apps/search/README.md, "Fusion defaults per
 * provider"), overridden by SEARCH_RRF_VECTOR_WEIGHT and SEARCH_SEMANTIC_FLOOR:
 * - `builtin`: measured on the judged set (docs/benchmarks.md, "Relevance"): its vectors are
 *   lexical, so the text side ranks and the semantic side mostly adds records the text side lacks;
 * - `http`: a language model, of unknown quality and similarity scale: both sides weigh the same
 *   (reciprocal rank fusion as published, and as Elasticsearch's and OpenSearch's hybrid search
 *   default to), and no similarity floor, since one model's unrelated texts sit at 0.1 and
 *   another's at 0.7. Not measured here (no model can be run on the project's machines): measure
 *   one's own with `pnpm --filter search relevance --provider http`.
 *
 * `noMatchSemanticFloor` (SEARCH_NO_MATCH_SEMANTIC_FLOOR) is the semantic floor of a search none of
 * whose words the text side finds in any form: strings of 6 to 12 random letters reach 0.293 (max
 * of 200, the generated catalogue) and 0.287 (the multilingual one) with the built-in provider
 * (`relevance --random 200`), so 0.4 keeps none of them; for a model, the same command tells.
 */
export const FUSION_DEFAULTS: Record<
  EmbeddingProviderName,
  { rrfVectorWeight: number; semanticFloor: number; noMatchSemanticFloor: number }
> = {
  builtin: { rrfVectorWeight: 0.01, semanticFloor: 0.1, noMatchSemanticFloor: 0.4 },
  http: { rrfVectorWeight: 0.5, semanticFloor: 0, noMatchSemanticFloor: 0.5 },
};

/** Every variable the search service reads, validated at start-up. */
export class SearchEnv extends BaseEnv {
  /**
   * A PostgreSQL that listings and searches read from: a streaming replica of DATABASE_URL's
   * server (apps/search/README.md, "Read replicas"). Unset: DATABASE_URL. The reindex, its lock,
   * migrations and every write stay on DATABASE_URL; the embedded database has no replica.
   */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  DATABASE_READ_URL?: string;

  /**
   * `/health/ready` fails while the read database replays the primary's changes more than this many
   * seconds late (`database_replica_lag_seconds`).
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(86_400)
  DATABASE_READ_MAX_LAG_SECONDS: number = 30;

  /** `app-name` of the root response. */
  @IsOptional()
  @IsString()
  APP_NAME: string = 'travel-search';

  /**
   * `/docs`, `/redoc` and `/openapi.json` exist only when this is true (docs/search-api.md).
   * Unset: on when APP_ENV is `local` (a local run serves its docs, as the backend does), off elsewhere.
   */
  @EnvBoolean()
  @IsOptional()
  @IsBoolean()
  WITH_DOCS?: boolean;

  /**
   * The search preview page at `/preview` (docs/preview.md): searches, filters and why each offer
   * ranks where it does, for client developers and operators. Unset: on when APP_ENV is `local`,
   * off elsewhere.
   */
  @EnvBoolean()
  @IsOptional()
  @IsBoolean()
  SEARCH_PREVIEW?: boolean;

  /**
   * Where a reindex reads the catalogue: a `.json` (array) or `.ndjson` file path, an `http(s)://`
   * URL answering either, `generated:<count>[:<seed>]` (the deterministic demo generator), or
   * `none`. Unset: `generated:2000` in the local environment, `none` elsewhere.
   */
  @IsOptional()
  @IsString()
  CATALOGUE_SOURCE?: string;

  /** How long an HTTP catalogue source may take, in milliseconds, before the reindex fails. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1000)
  CATALOGUE_SOURCE_TIMEOUT_MS: number = 120_000;

  /** A reindex that would remove more than this share of the catalogue changes nothing unless forced. */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  REINDEX_MAX_REMOVAL_SHARE: number = 0.5;

  /**
   * `maintenance_work_mem` of the index builds after a first (bulk) load: pgvector builds the HNSW
   * graph in memory while it fits and much more slowly once it does not (about 2.5 kB an offer with
   * 384 dimensions: 512MB holds some 200,000 offers, 1,000,000 need about 3GB). Taken from the
   * database server's memory, for the build only.
   */
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,6}(kB|MB|GB)$/, {
    message: 'REINDEX_MAINTENANCE_WORK_MEM must be a PostgreSQL memory size such as 512MB or 4GB',
  })
  REINDEX_MAINTENANCE_WORK_MEM: string = '512MB';

  /** Records embedded and staged per batch during a reindex. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5000)
  REINDEX_BATCH_SIZE: number = 500;

  /** An empty index with a source configured is built at start-up; a failed first build is retried after this delay. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1000)
  REINDEX_RETRY_MS: number = 60_000;

  /**
   * `builtin`: the offline hashed n-gram provider (lexical, no download); `http`: an
   * OpenAI-compatible `/v1/embeddings` server (EMBEDDING_URL, EMBEDDING_MODEL …; see
   * docs/search-embeddings.md).
   */
  @IsOptional()
  @IsIn(EMBEDDING_PROVIDERS)
  EMBEDDING_PROVIDER: EmbeddingProviderName = 'builtin';

  /**
   * Dimension of the embeddings. The `embedding` column is `vector(384)` (migration
   * AddTravelOffers); another value needs a migration that changes the column (see
   * apps/search/README.md), and the service refuses to start until the two agree.
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(8)
  @Max(2000)
  EMBEDDING_DIMENSION: number = 384;

  /**
   * Base URL of the OpenAI-compatible server (`http` provider; required then): with or without the
   * `/v1` suffix (`http://ollama:11434`, `https://api.openai.com/v1`), or the full `…/embeddings` URL.
   */
  @ValidateIf((env: SearchEnv) => env.EMBEDDING_PROVIDER === 'http' || env.EMBEDDING_URL !== undefined)
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'], require_tld: false, allow_underscores: true },
    {
      message:
        'EMBEDDING_URL must be the http(s) base URL of an OpenAI-compatible server when EMBEDDING_PROVIDER is http',
    },
  )
  EMBEDDING_URL?: string;

  /** Model name sent to the server (`http` provider; required then). It goes into every content hash. */
  @ValidateIf((env: SearchEnv) => env.EMBEDDING_PROVIDER === 'http' || env.EMBEDDING_MODEL !== undefined)
  @IsString({
    message: 'EMBEDDING_MODEL (the model name the server knows) is required when EMBEDDING_PROVIDER is http',
  })
  EMBEDDING_MODEL?: string;

  /** Sent as `Authorization: Bearer <key>` when set; never logged. */
  @IsOptional()
  @IsString()
  EMBEDDING_API_KEY?: string;

  /** Also send `dimensions: EMBEDDING_DIMENSION` (OpenAI `text-embedding-3-*`; many servers refuse it). */
  @EnvBoolean()
  @IsOptional()
  @IsBoolean()
  EMBEDDING_SEND_DIMENSIONS: boolean = false;

  /** Time given to the one attempt that embeds a search query, in milliseconds. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(10)
  @Max(60_000)
  EMBEDDING_TIMEOUT_MS: number = 1500;

  /** Time given to each attempt of a batch of documents (reindex), in milliseconds. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(10)
  @Max(600_000)
  EMBEDDING_BATCH_TIMEOUT_MS: number = 30_000;

  /** Documents per request during a reindex (text-embeddings-inference accepts 32 by default). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2048)
  EMBEDDING_BATCH_SIZE: number = 32;

  /** Retries of a failed batch (network, timeout, 429, 5xx), with exponential back-off or `Retry-After`. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  EMBEDDING_MAX_RETRIES: number = 4;

  /** Failed requests in a row that open the circuit breaker (calls then fail at once). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  EMBEDDING_CIRCUIT_FAILURES: number = 5;

  /** How long the circuit stays open before one trial request, in milliseconds. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  EMBEDDING_CIRCUIT_COOLDOWN_MS: number = 30_000;

  /** Query embeddings kept in the LRU cache (0: no cache). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  QUERY_EMBEDDING_CACHE_SIZE: number = 1000;

  /** How long a cached query embedding lives, in milliseconds. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  QUERY_EMBEDDING_CACHE_TTL_MS: number = 3_600_000;

  /** Text-side score minimum (`tsvectorFloor` when the query does not give one; README, "The text side"). */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  SEARCH_TSVECTOR_FLOOR: number = 0;

  /**
   * RRF weight of the semantic side (`rrfVectorWeight` when the query does not give one): 0 ranks by
   * full text alone, 1 by cosine similarity alone. Unset: the embedding provider's default
   * (FUSION_DEFAULTS).
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_RRF_VECTOR_WEIGHT?: number;

  /**
   * Cosine similarity minimum of the semantic side (`semanticFloor` when the query does not give
   * one). Unset: the embedding provider's default (FUSION_DEFAULTS).
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_SEMANTIC_FLOOR?: number;

  /**
   * The semantic side's minimum for a search none of whose words the text side finds in any form
   * (apps/search/README.md, "Searches that match nothing"): such a search answers only offers at
   * least this close. Unset: the embedding provider's default (FUSION_DEFAULTS).
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_NO_MATCH_SEMANTIC_FLOOR?: number;

  /**
   * How many nearest records (after the filters) the semantic side takes from the HNSW index at
   * most, before the floor. totalRecords counts exactly this candidate set, so every counted record
   * is reachable by paging (apps/search/README.md, "Hybrid ranking").
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  SEARCH_SEMANTIC_CANDIDATES: number = 100;

  /**
   * The offers holding a catalogue word spelt like a search word (the 3 closest by trigram
   * similarity, `search_terms`) join the semantic candidates with exact distances, when that word is
   * held by at most this many offers; 0 turns the lookup off (apps/search/README.md, "Hybrid ranking").
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100_000)
  SEARCH_SPELLING_NEIGHBOUR_MAX_DOCUMENTS: number = 500;

  /**
   * `hnsw.ef_search` of the hybrid searches (a session setting of each pooled connection; raised to
   * SEARCH_SEMANTIC_CANDIDATES on a pgvector without iterative scans).
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  SEARCH_HNSW_EF_SEARCH: number = 100;

  /**
   * `hnsw.max_scan_tuples` of the hybrid searches: how far a filtered iterative index scan may
   * wander looking for records that pass the filters (docs/benchmarks.md, "Hybrid search speed").
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  SEARCH_HNSW_MAX_SCAN_TUPLES: number = 5_000;

  /**
   * The weight of a word a search gains from the travel glossary as a translation (the same
   * concept's word in another language: apps/search/README.md, "Query expansion"), beside an exact
   * word's 1 and a typo correction's 0.6 / 0.4. A translation covers its query word's concept as the
   * word itself does ("Concept coverage"); its weight only orders offers of the same coverage. 0
   * turns the glossary off.
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_GLOSSARY_WEIGHT: number = 0.9;

  /**
   * The weight of a word of a narrower concept a search gains from the glossary's hierarchy
   * ("Wintersport" finding skiing, snowboarding and snowshoeing; apps/search/README.md, "Broader
   * and narrower concepts"), below a translation's. 0 turns it off.
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_NARROWER_WEIGHT: number = 0.5;

  /**
   * The weight of another name of a place a search names (the gazetteer: "Wallis" finding
   * "Valais", "Vallese"; apps/search/README.md, "Places"), beside an exact word's 1. 0 leaves
   * places to their own names.
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_PLACE_WEIGHT: number = 0.9;

  /**
   * The weight of the name of a place inside the one a search names ("Wallis" finding "Zermatt"),
   * below the place's own names. 0 turns it off.
   */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_PLACE_WITHIN_WEIGHT: number = 0.6;

  /**
   * Operator synonyms (apps/search/README.md, "Query expansion"): a file path or an `http(s)://`
   * URL of a synonyms file in Solr's format (`a, b, c` multi-way, `a => b` one-way), read at start
   * (a file that cannot be read or parsed stops the start, naming the line) and at each reindex
   * (then refused, keeping the previous synonyms). Unset: none.
   */
  @IsOptional()
  @IsString()
  SEARCH_SYNONYMS_SOURCE?: string;

  /** The weight of a word a search gains from an operator synonym (as SEARCH_GLOSSARY_WEIGHT); 0 turns them off. */
  @EnvFloat()
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  SEARCH_SYNONYM_WEIGHT: number = 0.9;

  /** The `k` of reciprocal rank fusion (docs/decisions.md D-51: 60). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  SEARCH_RRF_K: number = 60;

  /**
   * Embedding service unavailable while `search` is set: false → 503 `embedding_unavailable`;
   * true → a full-text-only answer with `X-Search-Fallback: fulltext`.
   */
  @EnvBoolean()
  @IsOptional()
  @IsBoolean()
  SEARCH_FULLTEXT_FALLBACK: boolean = false;

  /**
   * Past this many records a listing stops counting: `totalRecords` is then this bound (a lower
   * bound, every counted record reachable by paging) with `totalRecordsRelation: "gte"`
   * (docs/decisions.md D-52, as Elasticsearch's `track_total_hits`); 0 counts every record.
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(0)
  SEARCH_TOTAL_EXACT_LIMIT: number = 0;

  /**
   * How often (ms) a replica asks the database whether a reindex wrote a new generation of the
   * text index, which it then loads and swaps in (the replica that ran the reindex loads it at
   * once); 0: only after its own reindexes.
   */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  SEARCH_TEXT_INDEX_POLL_MS: number = 2_000;

  /** `package_name` of the Android app-links file; unset: the file is an empty array. */
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, {
    message: 'ANDROID_PACKAGE_NAME must be a Java package name such as com.example.app',
  })
  ANDROID_PACKAGE_NAME?: string;

  /** SHA-256 fingerprints of the app's signing certificates, comma-separated (`AB:CD:…`, 32 bytes). */
  @EnvList()
  @IsOptional()
  @IsArray()
  @Matches(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, {
    each: true,
    message: 'ANDROID_CERT_FINGERPRINTS must be SHA-256 fingerprints written AB:CD:… in upper case',
  })
  ANDROID_CERT_FINGERPRINTS: string[] = [];

  /** `relation` of the app-links file, comma-separated. */
  @EnvList()
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  ANDROID_RELATIONS: string[] = ['delegate_permission/common.handle_all_urls'];
}

export type SearchConfig = SearchEnv & {
  port: number;
  migrateOnStart: boolean;
  /** CATALOGUE_SOURCE with its default applied; `undefined` when there is none. */
  catalogueSource?: string;
  /** Build an empty index at start-up (the service: yes; the reindex command builds it itself). */
  reindexOnStart: boolean;
  /** WITH_DOCS with its default applied: `/docs`, `/redoc` and `/openapi.json` are served. */
  docsEnabled: boolean;
  /** SEARCH_PREVIEW with its default applied: the preview page is served. */
  previewEnabled: boolean;
};

export const DEMO_CATALOGUE_SOURCE = 'generated:2000';

export function loadSearchConfig(env: Record<string, string | undefined> = process.env): SearchConfig {
  const config = loadConfig(SearchEnv, env);
  if (config.DATABASE_READ_URL !== undefined && config.DATABASE_URL === undefined) {
    throw new ConfigError([
      'DATABASE_READ_URL: needs DATABASE_URL (the primary); the embedded database has no replica',
    ]);
  }
  const source = config.CATALOGUE_SOURCE ?? (config.APP_ENV === 'local' ? DEMO_CATALOGUE_SOURCE : 'none');
  return Object.assign(config, {
    port: config.PORT ?? 3001,
    migrateOnStart: config.DB_MIGRATE_ON_START ?? config.APP_ENV === 'local',
    catalogueSource: source === 'none' ? undefined : source,
    reindexOnStart: true,
    docsEnabled: config.WITH_DOCS ?? config.APP_ENV === 'local',
    previewEnabled: config.SEARCH_PREVIEW ?? config.APP_ENV === 'local',
  });
}

export const SEARCH_CONFIG = Symbol('SEARCH_CONFIG');
