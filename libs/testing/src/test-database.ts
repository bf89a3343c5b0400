import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  urlOfDatabase,
  EmbeddedExtension,
  runMigrationsUnderLock,
  typeOrmOptions,
  withClient,
} from '@rt/database';
import { isStaleTestDatabase, newRunId, TEST_DATABASE_PREFIX } from './run-id';

/**
 * Test databases: the global setup migrates one template per app; each test file then gets its
 * own fresh copy, so files run in parallel without cleaning up after each other.
 * - TEST_DATABASE_URL set: a real PostgreSQL server; copies are `CREATE DATABASE … TEMPLATE`.
 * - unset: the embedded PostgreSQL (PGlite); the template is a dump of a migrated instance and each
 *   test file starts its own instance from it (one PGlite holds one database).
 */
export interface TemplateSpec {
  app: string;
  migrations: Function[];
  extensions: EmbeddedExtension[];
}

export interface TestDatabase {
  url: string;
  singleSession: boolean;
  drop(): Promise<void>;
}

/**
 * Names carry the id of the test run (set by the global setup, inherited by the workers), so two
 * runs on one server — a developer's and CI's — never drop each other's databases.
 */
const RUN_ID_VARIABLE = 'RT_TEST_RUN_ID';
const runId = () => process.env[RUN_ID_VARIABLE] ?? 'local';
const templateName = (app: string) => `${TEST_DATABASE_PREFIX}${app}_${runId()}_template`;
const copyPrefix = (app: string) => `${TEST_DATABASE_PREFIX}${app}_${runId()}_`;

export function startTestRun(): void {
  process.env[RUN_ID_VARIABLE] ??= newRunId(Date.now(), process.pid);
}

export function testServerUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export async function migrate(url: string, spec: TemplateSpec, singleSession: boolean): Promise<void> {
  const dataSource = new DataSource(
    typeOrmOptions({
      url,
      singleSession,
      poolSize: 1,
      entities: [],
      migrations: spec.migrations,
      applicationName: `${spec.app}-test-setup`,
    }),
  );
  await dataSource.initialize();
  try {
    await runMigrationsUnderLock(dataSource, `${spec.app}:migrations`);
  } finally {
    await dataSource.destroy();
  }
}

/** Global setup on a real server: a freshly migrated template database. Returns a log line. */
export async function prepareServerTemplate(serverUrl: string, spec: TemplateSpec): Promise<string> {
  const template = templateName(spec.app);
  const version = await withClient(serverUrl, async (admin) => {
    await dropStaleTestDatabases(admin);
    await dropCopies(admin, spec.app);
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${template}`);
    const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
    return rows[0].server_version;
  });
  await migrate(urlOfDatabase(serverUrl, template), spec, false);
  const { hostname, port } = new URL(serverUrl);
  return `[test-db] ${spec.app}: e2e tests run on PostgreSQL ${version} at ${hostname}:${port || 5432} (template ${template})`;
}

export async function createServerCopy(serverUrl: string, app: string): Promise<TestDatabase> {
  const name = `${copyPrefix(app)}${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (admin) =>
    admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName(app)}`),
  );
  return {
    url: urlOfDatabase(serverUrl, name),
    singleSession: false,
    drop: () =>
      withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

export async function dropServerTemplate(serverUrl: string, app: string): Promise<void> {
  await withClient(serverUrl, async (admin) => {
    await dropCopies(admin, app);
    await admin.query(`DROP DATABASE IF EXISTS ${templateName(app)} WITH (FORCE)`);
  });
}

async function dropCopies(admin: Client, app: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2',
    [`${copyPrefix(app)}%`, templateName(app)],
  );
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
}

/** Drops the test databases that killed runs left behind (run-id.ts says which). */
async function dropStaleTestDatabases(admin: Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string; connections: number }>(
    `SELECT d.datname, (SELECT count(*)::int FROM pg_stat_activity a WHERE a.datid = d.oid) AS connections
     FROM pg_database d WHERE d.datname LIKE $1`,
    [`${TEST_DATABASE_PREFIX}%`],
  );
  const now = Date.now();
  const stale = rows.filter((row) => isStaleTestDatabase(row.datname, row.connections, now));
  for (const { datname } of stale) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  if (stale.length) console.log(`[test-db] dropped ${stale.length} test database(s) left by earlier runs`);
}
