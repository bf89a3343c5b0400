import type { EmbeddedExtension } from '@rt/database';

/**
 * Extensions the search migrations create: pgvector, unaccent for the `travel_search` text
 * configuration and the folding of the text side, pg_trgm for the spelling neighbours and typo
 * candidates of a search's words (`search_terms`), fuzzystrmatch (levenshtein) to check them.
 */
export const SEARCH_EXTENSIONS: EmbeddedExtension[] = ['vector', 'unaccent', 'pg_trgm', 'fuzzystrmatch'];
