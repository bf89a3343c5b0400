import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withClient } from '@rt/database';

// What the PostgreSQL servers of our own (the tests' throwaway clusters, the restore drill's
// servers) share: where `initdb` and `pg_ctl` are, the system user they run as when this process is
// root (PostgreSQL refuses to run as root), and how a cluster is initialised.

/** The system user the server's commands run as when this process is root. */
export interface RunAs {
  user: string;
  uid: number;
  gid: number;
}

/** As root: the `postgres` system user (through `runuser`); otherwise `undefined` (this process's user). */
export function serverUserForThisProcess(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { user: 'postgres', uid: id('-u'), gid: id('-g') };
}

/** A command line, through `runuser` (which keeps the environment) when `runAs` is set. */
export function asServerUser(runAs: RunAs | undefined, file: string, args: string[]): [string, string[]] {
  return runAs ? ['runuser', ['-u', runAs.user, '--', file, ...args]] : [file, args];
}

/** The server programs the throwaway clusters run (pg_basebackup: the read-replica tests' standby). */
const SERVER_PROGRAMS = ['initdb', 'pg_ctl', 'postgres', 'pg_basebackup'];

/**
 * The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`, `postgres`, `pg_basebackup`):
 * PG_BIN_DIR, else `pg_config --bindir`, else Debian's newest. None: an error naming what is
 * missing, never a reason to skip (`pnpm check:process` and `pnpm drill:restore` need them).
 */
export function postgresBinDir(): string {
  const candidates = [process.env.PG_BIN_DIR];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // pg_config is not installed: look for Debian's versioned folders below.
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    for (const version of readdirSync(debianRoot).sort().reverse())
      candidates.push(join(debianRoot, version, 'bin'));
  }
  const found = candidates.find(
    (dir) => dir && SERVER_PROGRAMS.every((program) => existsSync(join(dir, program))),
  );
  if (!found) {
    throw new Error(
      `PostgreSQL's server programs (${SERVER_PROGRAMS.join(', ')}) not found in PG_BIN_DIR, \`pg_config --bindir\` or /usr/lib/postgresql/*/bin: install a PostgreSQL server with pgvector (Debian: postgresql and postgresql-<major>-pgvector) or set PG_BIN_DIR to its bin folder`,
    );
  }
  return found;
}

/** `initdb`'s arguments for a new cluster: trust for `postgres` on loopback, UTF-8, C collation (stable row order). */
export function initdbArgs(dataDir: string): string[] {
  return [
    '--pgdata',
    dataDir,
    '--username',
    'postgres',
    '--auth',
    'trust',
    '--encoding',
    'UTF8',
    '--locale',
    'C',
    '--no-sync',
  ];
}

/** One statement on a fresh connection to `url`, closed afterwards. */
export async function queryOnce<Row extends Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
  connectionTimeoutMillis?: number,
): Promise<Row[]> {
  return withClient(
    { connectionString: url, connectionTimeoutMillis },
    async (client) => (await client.query<Row>(sql, params)).rows,
  );
}
