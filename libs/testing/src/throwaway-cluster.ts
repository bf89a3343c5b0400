import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import {
  asServerUser,
  initdbArgs,
  postgresBinDir,
  queryOnce,
  serverUserForThisProcess,
  type RunAs,
} from './postgres-commands';

const run = promisify(execFile);

const FOLDER_PREFIX = 'rt-cluster-';
const OWNER_FILE = 'owner.pid';

/**
 * A PostgreSQL cluster of the test's own, made with `initdb` in a temporary folder and driven with
 * `pg_ctl`, so that fault tests can stop, crash and restart a database without touching the
 * machine's shared server. It listens on a free loopback port with trust authentication for the
 * `postgres` user. PostgreSQL refuses to run as root: as root, its commands run as the `postgres`
 * system user (`runuser`), which then owns the folder.
 */
export class ThrowawayCluster {
  private constructor(
    readonly directory: string,
    readonly port: number,
    private readonly binDir: string,
    private readonly runAs: RunAs | undefined,
  ) {}

  static async create(): Promise<ThrowawayCluster> {
    const cluster = await ThrowawayCluster.allocate();
    await cluster.exec('initdb', initdbArgs(cluster.dataDir));
    await cluster.start();
    return cluster;
  }

  /** A new folder and a free port, owned by this test process (swept when the process is gone). */
  private static async allocate(): Promise<ThrowawayCluster> {
    const binDir = postgresBinDir();
    const runAs = serverUserForThisProcess();
    sweepAbandonedClusters(binDir, runAs);
    const directory = await mkdtemp(join(tmpdir(), FOLDER_PREFIX));
    await writeFile(join(directory, OWNER_FILE), String(process.pid));
    if (runAs) await chown(directory, runAs.uid, runAs.gid);
    return new ThrowawayCluster(directory, await freePort(), binDir, runAs);
  }

  /**
   * A hot standby of this cluster, streaming from it: a copy made with `pg_basebackup -R` (which
   * writes `standby.signal` and the `primary_conninfo` naming this server), started on a port of
   * its own. It answers read-only queries and replays what this cluster writes. The primary needs
   * nothing more than what `create()` gives it: `wal_level=replica` and `max_wal_senders` are
   * PostgreSQL's defaults (set explicitly in `start()`), and initdb's `pg_hba.conf` with
   * `--auth trust` admits replication connections from 127.0.0.1.
   */
  async createStandby(): Promise<ThrowawayCluster> {
    const standby = await ThrowawayCluster.allocate();
    await standby.exec('pg_basebackup', [
      '--pgdata',
      standby.dataDir,
      '--host',
      '127.0.0.1',
      '--port',
      String(this.port),
      '--username',
      'postgres',
      '--write-recovery-conf',
      '--wal-method',
      'stream',
      '--checkpoint',
      'fast',
      '--no-sync',
    ]);
    await standby.start();
    return standby;
  }

  /** Stops (true) or resumes (false) replaying the primary's changes on a standby; it keeps receiving them. */
  async pauseReplay(paused: boolean): Promise<void> {
    await this.query(paused ? 'SELECT pg_wal_replay_pause()' : 'SELECT pg_wal_replay_resume()');
  }

  /**
   * Waits until this standby has replayed everything the primary had written when called (the
   * primary's current WAL position), e.g. a database the test created on the primary.
   */
  async waitForReplayOf(primary: ThrowawayCluster, timeoutMs = 30_000): Promise<void> {
    const [{ lsn }] = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [{ caught_up }] = await this.query<{ caught_up: boolean }>(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up',
        [lsn],
      );
      if (caught_up) return;
      if (Date.now() > deadline) throw new Error(`the standby did not replay ${lsn} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  get dataDir(): string {
    return join(this.directory, 'data');
  }

  /** A connection URL to `database` on this cluster. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    // fsync off: a crash of the server process still keeps what it wrote (the OS has it); only a
    // machine crash would not, and the tests never simulate one.
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.directory}`,
      '-c fsync=off',
      '-c max_connections=200',
      // What a standby made with createStandby() needs of its primary (PostgreSQL's defaults).
      '-c wal_level=replica',
      '-c max_wal_senders=10',
    ].join(' ');
    await this.exec('pg_ctl', [
      'start',
      '--pgdata',
      this.dataDir,
      '--wait',
      '--timeout',
      '60',
      '--log',
      this.logFile,
      '-o',
      options,
    ]);
  }

  /**
   * Stops the server: `fast` disconnects clients and shuts down cleanly; `immediate` kills it the
   * way a crash would (recovery replays the log at the next start).
   */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.exec('pg_ctl', ['stop', '--pgdata', this.dataDir, '--wait', '--mode', mode]);
  }

  async createDatabase(name: string): Promise<string> {
    await this.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    return this.url(name);
  }

  /** One statement on a fresh connection to `database`. */
  async query<Row extends Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    database = 'postgres',
  ): Promise<Row[]> {
    return queryOnce<Row>(this.url(database), sql, params);
  }

  /** The server's own log, for a failing test's message. */
  async log(): Promise<string> {
    return readFile(this.logFile, 'utf8').catch(() => '');
  }

  /** Stops the server (if it runs) and removes the folder. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    await rm(this.directory, { recursive: true, force: true });
  }

  /** Stops the server at once and removes the folder, synchronously. */
  stopNow(): void {
    try {
      execFileSync(...this.command('pg_ctl', ['stop', '--pgdata', this.dataDir, '--mode', 'immediate']), {
        stdio: 'ignore',
      });
    } catch {
      // Not running.
    }
    rmSync(this.directory, { recursive: true, force: true });
  }

  static abandoned(directory: string, binDir: string, runAs: RunAs | undefined): ThrowawayCluster {
    return new ThrowawayCluster(directory, 0, binDir, runAs);
  }

  private get logFile(): string {
    return join(this.directory, 'server.log');
  }

  private command(command: string, args: string[]): [string, string[]] {
    return asServerUser(this.runAs, join(this.binDir, command), args);
  }

  private async exec(command: string, args: string[]): Promise<void> {
    const [file, fileArgs] = this.command(command, args);
    try {
      await run(file, fileArgs, { cwd: this.directory, timeout: 120_000 });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(
        `${command} ${args[0]} failed: ${stderr || stdout || (error as Error).message}\n${await this.log()}`,
      );
    }
  }
}

/**
 * A test process that died before its afterAll (a crash, a timeout, a kill) leaves its cluster
 * running: the next cluster made on this machine stops and removes those whose owner is gone.
 */
function sweepAbandonedClusters(binDir: string, runAs: RunAs | undefined): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const directory = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(directory, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
      ThrowawayCluster.abandoned(directory, binDir, runAs).stopNow();
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
