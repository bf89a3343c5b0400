// The drill's own PostgreSQL servers: `initdb` into the drill's temporary folder, `pg_ctl` on a free
// loopback port, never the machine's shared server. PostgreSQL refuses to run as root: as root, its
// commands (and barman-cloud's, which read and write the data directory) run as the `postgres`
// system user through `runuser`, which keeps the environment (the object store's credentials).
import { asServerUser, initdbArgs, queryOnce, type RunAs } from '@rt/testing';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chown, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a command to its end; its output goes into the error when it fails. */
export async function runCommand(
  runAs: RunAs | undefined,
  file: string,
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {},
): Promise<string> {
  const [command, commandArgs] = asServerUser(runAs, file, args);
  try {
    const { stdout } = await run(command, commandArgs, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      timeout: options.timeoutMs ?? 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${file} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`);
  }
}

/** Makes a folder the server user owns (the drill's folder is root's when it runs as root). */
export async function serverFolder(path: string, runAs: RunAs | undefined): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  if (runAs) await chown(path, runAs.uid, runAs.gid);
}

/** A setting line of postgresql.auto.conf (later lines win over earlier ones). */
export function settingLine(name: string, value: string | number): string {
  return `${name} = '${String(value).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

export class DrillServer {
  constructor(
    /** Names the server in messages. */
    readonly name: string,
    /** A folder owned by the server user: the data directory, the socket and the log go inside. */
    readonly directory: string,
    readonly port: number,
    private readonly binDir: string,
    private readonly runAs: RunAs | undefined,
    /** The environment of the postmaster, so of archive_command and restore_command. */
    private readonly env: Record<string, string>,
  ) {}

  get dataDir(): string {
    return join(this.directory, 'data');
  }

  get logFile(): string {
    return join(this.directory, 'server.log');
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** A new cluster: trust for `postgres` on loopback, UTF-8, C collation (stable row order). */
  async initdb(): Promise<void> {
    await this.pg('initdb', initdbArgs(this.dataDir));
  }

  /** Appends settings to postgresql.auto.conf (what `ALTER SYSTEM` writes; read at start). */
  async configure(settings: Record<string, string | number>): Promise<void> {
    const lines = Object.entries(settings).map(([name, value]) => settingLine(name, value));
    await appendFile(join(this.dataDir, 'postgresql.auto.conf'), `${lines.join('\n')}\n`);
  }

  /** Starts the server and waits until it accepts connections (a recovering one: read-only ones). */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.directory}`,
      '-c max_connections=100',
    ].join(' ');
    await this.pg(
      'pg_ctl',
      ['start', '--pgdata', this.dataDir, '--wait', '--timeout', '300', '--log', this.logFile, '-o', options],
      600_000,
    );
  }

  /** `immediate` is a crash (no checkpoint); `fast` a clean stop. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.pg('pg_ctl', ['stop', '--pgdata', this.dataDir, '--wait', '--mode', mode]);
  }

  /** Synchronous last-resort stop (process exit); never throws. */
  stopNow(): void {
    if (!existsSync(join(this.dataDir, 'postmaster.pid'))) return;
    try {
      const [command, args] = asServerUser(this.runAs, join(this.binDir, 'pg_ctl'), [
        'stop',
        '--pgdata',
        this.dataDir,
        '--mode',
        'immediate',
      ]);
      execFileSync(command, args, { stdio: 'ignore' });
    } catch {
      // not running
    }
  }

  /** One statement on a fresh connection. */
  async query<Row extends Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    database = 'postgres',
  ): Promise<Row[]> {
    return queryOnce<Row>(this.url(database), sql, params, 10_000);
  }

  /** Waits until recovery has ended (the restored server promoted itself at the target). */
  async waitPromoted(timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const [{ recovering }] = await this.query<{ recovering: boolean }>(
        'SELECT pg_is_in_recovery() AS recovering',
      );
      if (!recovering) return;
      if (Date.now() > until) throw new Error(`${this.name} still in recovery after ${timeoutMs / 1000} s`);
      await new Promise((done) => setTimeout(done, 100));
    }
  }

  private async pg(command: string, args: string[], timeoutMs = 120_000): Promise<void> {
    try {
      await runCommand(this.runAs, join(this.binDir, command), args, {
        env: this.env,
        timeoutMs,
        cwd: this.directory,
      });
    } catch (error) {
      const log = await readFile(this.logFile, 'utf8').catch(() => '');
      throw new Error(
        `${this.name}: ${(error as Error).message}\n${log.trimEnd().split('\n').slice(-30).join('\n')}`,
      );
    }
  }
}
