import { BaseEnv, ConfigError, loadSections } from '@rt/platform';
import type { SectionsOf } from '@rt/platform';
import { ReadDatabaseSettings } from './database/read-database.settings';
import { RateLimitSettings } from './http/rate-limit/rate-limit.settings';
import { EmbeddingSettings } from './embedding/embedding.settings';
import { QueryExpansionSettings } from './query/glossary/query-expansion.settings';
import { ReindexSettings } from './indexes/reindex/reindex.settings';
import { ServiceSettings } from './http/root/service.settings';
import { TextIndexSettings } from './indexes/text-index/text-index.settings';
import { FUSION_DEFAULTS, RankingSettings } from './ranking/ranking.settings';
import { VectorIndexSettings } from './indexes/vector-index/vector-index.settings';
import { WellKnownSettings } from './http/well-known/well-known.settings';

/**
 * Every variable the search service reads, a section per feature, each beside the feature that is
 * injected it (its class is the injection token: sectionProviders in app.module.ts). BaseEnv holds
 * the variables every service reads.
 */
export const SEARCH_SECTIONS = [
  BaseEnv,
  ReadDatabaseSettings,
  ServiceSettings,
  ReindexSettings,
  EmbeddingSettings,
  RankingSettings,
  QueryExpansionSettings,
  TextIndexSettings,
  VectorIndexSettings,
  RateLimitSettings,
  WellKnownSettings,
] as const;

/**
 * The search service's one configuration object: every section's variables and derived values side
 * by side, for what needs the whole (start-up, the commands, the benchmark, the tests); a feature
 * reads its section only.
 */
export type SearchConfig = SectionsOf<typeof SEARCH_SECTIONS> & {
  port: number;
  migrateOnStart: boolean;
};

/** What `pnpm start` indexes: the demo catalogue, its departures ahead of the day it runs (D-61, D-62). */
export const DEMO_CATALOGUE_SOURCE = 'demo:2000';

export function loadSearchConfig(env: Record<string, string | undefined> = process.env): SearchConfig {
  const config = loadSections(SEARCH_SECTIONS, env);
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
    fusionDefaults: FUSION_DEFAULTS[config.EMBEDDING_PROVIDER],
    synonymsSourceTimeoutMs: config.CATALOGUE_SOURCE_TIMEOUT_MS,
    rateLimitEnabled: config.SEARCH_RATE_LIMIT ?? config.APP_ENV !== 'local',
  });
}

/** The whole configuration (SearchConfig), for what needs it whole; a feature is injected its section. */
export const SEARCH_CONFIG = Symbol('SEARCH_CONFIG');
