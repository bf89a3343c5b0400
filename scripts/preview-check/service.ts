import { join } from 'node:path';
import { startLogged, type ServiceChild } from '../common/service-process';

/**
 * Starts the built search service (`apps/search/dist/main.js`) as `pnpm start` does in a fresh
 * checkout: the local environment (so the preview is on by its default), an embedded database in
 * `dataDir`, the demo catalogue indexed before it listens. Variables a developer's shell may hold
 * are blanked (empty = unset).
 */
export function startSearch(root: string, port: number, dataDir: string, logFile: string): ServiceChild {
  return startLogged('the search service', join(root, 'apps/search/dist/main.js'), {
    cwd: join(root, 'apps/search'),
    port,
    env: {
      DATA_DIR: dataDir,
      APP_ENV: '',
      DATABASE_URL: '',
      DATABASE_READ_URL: '',
      CATALOGUE_SOURCE: '',
      EMBEDDING_PROVIDER: '',
      SEARCH_PREVIEW: '',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
    },
    logFile,
  });
}
