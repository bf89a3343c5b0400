import { openDatabase, withClient, type OpenDatabaseOptions } from '@rt/database';
import type { Client } from 'pg';

/**
 * Opens the embedded database kept in `options.dataDir` as a service starting on it would, runs
 * `work` on one connection to it, then closes the connection and stops the database (the files
 * stay, for the next open).
 */
export async function onEmbeddedDatabase<T>(
  options: Omit<OpenDatabaseOptions, 'url'>,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(options);
  try {
    return await withClient(database.url, work);
  } finally {
    await database.close();
  }
}
