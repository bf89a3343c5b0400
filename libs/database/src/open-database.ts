import { join, resolve } from 'node:path';
import { EmbeddedPostgres, EmbeddedPostgresExtensions } from './embedded-postgres';

/** Extensions the embedded database makes available to `CREATE EXTENSION` (a real server has its own). */
export type EmbeddedExtension =
  'vector' | 'unaccent' | 'pg_trgm' | 'fuzzystrmatch' | 'cube' | 'earthdistance';

export function embeddedExtensions(names: EmbeddedExtension[]): EmbeddedPostgresExtensions {
  return Object.fromEntries(names.map((name) => [name, true]));
}

export interface OpenDatabaseOptions {
  /** DATABASE_URL: when set, that PostgreSQL is used and nothing is embedded. */
  url?: string;
  /** Where the embedded database keeps its files (DATA_DIR), so data survives a restart. */
  dataDir: string;
  extensions: EmbeddedExtension[];
}

export interface OpenedDatabase {
  url: string;
  /** An embedded database is one session: the pool must hold a single connection. */
  embedded: boolean;
  dataDir?: string;
  /** Stops the embedded database (after the pool is closed); nothing for a server. */
  close(): Promise<void>;
}

/** `.data/<app>` at the root of the workspace, whether the service runs from src or dist. */
export function defaultDataDir(app: string): string {
  return join(__dirname, '..', '..', '..', '.data', app);
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (options.url) return { url: options.url, embedded: false, close: async () => undefined };
  const dataDir = resolve(options.dataDir);
  const embedded = await EmbeddedPostgres.start({
    dataDir,
    extensions: embeddedExtensions(options.extensions),
  });
  return { url: embedded.url, embedded: true, dataDir, close: () => embedded.stop() };
}
