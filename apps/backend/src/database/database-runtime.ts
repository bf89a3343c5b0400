import type { AppDatabaseConnection } from '@rt/database';

/**
 * The database the backend runs on, as its entry point opened it (app.module.ts provides it under
 * BACKEND_DATABASE), for what must know more than a DataSource tells: the activation codes' export
 * holds a connection for its whole run, which a pool of one connection cannot spare.
 */
export interface BackendDatabase extends AppDatabaseConnection {
  /** Connections the pool may hold: 1 on the embedded database (one session), else DB_POOL_SIZE. */
  poolSize: number;
}

export const BACKEND_DATABASE = Symbol('BACKEND_DATABASE');

/** What BACKEND_DATABASE holds for a connection and the pool size of the configuration. */
export function backendDatabaseOf(
  connection: AppDatabaseConnection,
  configuredPoolSize: number,
): BackendDatabase {
  return {
    url: connection.url,
    singleSession: connection.singleSession,
    poolSize: connection.singleSession ? 1 : configuredPoolSize,
  };
}
