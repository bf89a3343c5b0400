import { resolve } from 'node:path';

/**
 * The repository's root (three folders up from both libs/testing/src and libs/testing/dist): the
 * process specs run the built services and their commands from it.
 */
export const REPOSITORY_ROOT = resolve(__dirname, '..', '..', '..');

/** The built entry points (`pnpm build`) the process specs run, relative to the repository's root. */
export const BUILT = {
  backendMain: 'apps/backend/dist/main.js',
  backendCreateAdmin: 'apps/backend/dist/cli/create-admin.js',
  searchMain: 'apps/search/dist/main.js',
  searchMigrate: 'apps/search/dist/database/migrate.js',
  searchReindex: 'apps/search/dist/cli/reindex.js',
  searchGenerateCatalogue: 'apps/search/dist/cli/generate-catalogue.js',
} as const;

/**
 * The test runner's variables that would point a built search service or its commands at another
 * database, folder, port or provider than the test's own: left out of what they inherit
 * (`withoutEnv`).
 */
export const SEARCH_RUNNER_ENV =
  /^(DATABASE_URL|DATABASE_READ_|TEST_DATABASE_URL|DATA_DIR|PORT|APP_ENV|LOG_LEVEL|CATALOGUE_|EMBEDDING_|SEARCH_|REINDEX_|QUERY_EMBEDDING_|DB_)/;
