import { Client } from 'pg';

/** Where the services keep their data during a load run. */
export type DatabasePlan =
  | {
      kind: 'server';
      /** The server as given (credentials included); never printed. */
      serverUrl: string;
      /** The server without credentials, for the report. */
      label: string;
      /** PostgreSQL's own `version()`, short. */
      version: string;
      /** One fresh database per service, dropped at the end. */
      databases: { backend: string; search: string };
    }
  | { kind: 'embedded'; label: string; reason: string };

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `postgres://host:port/db`, without user or password. */
export function withoutCredentials(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

async function serverVersion(serverUrl: string): Promise<string> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return `PostgreSQL ${rows[0]?.server_version ?? '?'}`;
  } finally {
    await client.end();
  }
}

/**
 * The server named (it must answer), else the local default if it answers, else the embedded
 * database. Database names are unique per run, so runs never share data.
 */
export async function planDatabase(options: {
  serverUrl?: string;
  embedded: boolean;
}): Promise<DatabasePlan> {
  if (options.embedded) return { kind: 'embedded', label: 'embedded (PGlite)', reason: 'asked for' };
  const stamp = `${Date.now().toString(36)}_${process.pid}`;
  const databases = { backend: `rt_load_${stamp}_backend`, search: `rt_load_${stamp}_search` };
  if (options.serverUrl) {
    const version = await serverVersion(options.serverUrl).catch((error: unknown) => {
      throw new Error(
        `the PostgreSQL server of LOAD_DATABASE_URL/DATABASE_URL (${withoutCredentials(options.serverUrl!)}) does not answer: ${String(error)}`,
      );
    });
    return {
      kind: 'server',
      serverUrl: options.serverUrl,
      label: withoutCredentials(options.serverUrl),
      version,
      databases,
    };
  }
  try {
    const version = await serverVersion(DEFAULT_SERVER_URL);
    return {
      kind: 'server',
      serverUrl: DEFAULT_SERVER_URL,
      label: withoutCredentials(DEFAULT_SERVER_URL),
      version,
      databases,
    };
  } catch (error) {
    return {
      kind: 'embedded',
      label: 'embedded (PGlite)',
      reason: `${withoutCredentials(DEFAULT_SERVER_URL)} does not answer (${String(error)})`,
    };
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function createDatabases(plan: DatabasePlan & { kind: 'server' }): Promise<void> {
  const client = new Client({ connectionString: plan.serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    for (const name of Object.values(plan.databases)) await client.query(`CREATE DATABASE ${quoted(name)}`);
  } finally {
    await client.end();
  }
}

/** Drops the run's databases (those that exist); never throws, returns what went wrong. */
export async function dropDatabases(plan: DatabasePlan & { kind: 'server' }): Promise<string[]> {
  const problems: string[] = [];
  const client = new Client({ connectionString: plan.serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    for (const name of Object.values(plan.databases)) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
      } catch (error) {
        problems.push(`drop ${name}: ${String(error)}`);
      }
    }
  } catch (error) {
    problems.push(`connect to drop the databases: ${String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  return problems;
}
