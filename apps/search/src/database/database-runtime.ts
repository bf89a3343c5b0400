/** Which database the service runs on (app.module.ts provides it under SEARCH_DATABASE). */
export interface DatabaseRuntime {
  url: string;
  /** The embedded database: one session, a pool of one connection. */
  singleSession: boolean;
}

export const SEARCH_DATABASE = Symbol('SEARCH_DATABASE');

/**
 * The DataSource that listings and searches read from: the pool of DATABASE_READ_URL (a streaming
 * replica) when it names another database, else the primary's own DataSource.
 */
export const SEARCH_READER = Symbol('SEARCH_READER');

/** The name of the read replica's TypeORM DataSource, when there is one. */
export const READ_DATA_SOURCE_NAME = 'read';

/**
 * The URL of a read pool of its own, or undefined when listings read from the primary: no
 * DATABASE_READ_URL, the same URL as the primary's, or the embedded database (one session, no replica).
 */
export function readReplicaUrl(database: DatabaseRuntime, readUrl: string | undefined): string | undefined {
  if (database.singleSession || readUrl === undefined || readUrl === database.url) return undefined;
  return readUrl;
}
