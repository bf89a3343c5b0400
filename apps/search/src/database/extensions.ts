import type { EmbeddedExtension } from '@rt/database';

/**
 * Extensions the search migrations create: pgvector, unaccent for the `travel_search` text
 * configuration, pg_trgm for the spelling neighbours of a search's words (`search_terms`).
 */
export const SEARCH_EXTENSIONS: EmbeddedExtension[] = ['vector', 'unaccent', 'pg_trgm'];
