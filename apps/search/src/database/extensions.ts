import type { EmbeddedExtension } from '@rt/database';

/** Extensions the search migrations create: pgvector, and unaccent for the `travel_search` text configuration. */
export const SEARCH_EXTENSIONS: EmbeddedExtension[] = ['vector', 'unaccent'];
