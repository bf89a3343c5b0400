/**
 * The embedded PostgreSQL used when no DATABASE_URL is given: PGlite (PostgreSQL compiled to WASM)
 * behind pglite-socket, run in a child process (`assets/pglite-server.mjs`) and reached over a
 * loopback TCP port with an ordinary postgres:// URL.
 *
 * Why a child process:
 *  - PGlite runs queries synchronously on the thread that calls it; in its own process a long
 *    query never blocks the service's (or a test's) event loop;
 *  - PGlite is ESM and loads WASM at run time; Jest and ts-jest never have to load it;
 *  - the child stops by itself when its parent dies (IPC disconnect), leaving no orphan behind.
 *
 * PGlite is a single PostgreSQL session: clients must use a pool of one connection, no
 * session-level SET (only SET LOCAL), and short transactions.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Extensions made available to `CREATE EXTENSION` in the embedded database. */
export interface EmbeddedPostgresExtensions {
  /** pgvector (`vector` type, `<=>` operators, HNSW indexes). */
  vector?: boolean;
  /** contrib `unaccent`. */
  unaccent?: boolean;
  /** contrib `pg_trgm`. */
  pg_trgm?: boolean;
  /** contrib `fuzzystrmatch` (`levenshtein`, `soundex`, …). */
  fuzzystrmatch?: boolean;
  /** contrib `cube` (the `<->` distance operator and its GiST operator class). */
  cube?: boolean;
  /** contrib `earthdistance` (`ll_to_earth`, `earth_distance`); needs `cube`, loaded with it. */
  earthdistance?: boolean;
}

export interface EmbeddedPostgresOptions {
  /** Persisted PGDATA directory (created if missing). Omit for in-memory. */
  dataDir?: string;
  /**
   * Start from a dump (see `dump()`): the tarball bytes, or a path to a file
   * containing them (cheaper when many workers share one template file).
   */
  loadDataDir?: Uint8Array | { file: string };
  extensions?: EmbeddedPostgresExtensions;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (a free port chosen by the OS). */
  port?: number;
  /** Client connections pglite-socket accepts at once; default 1 (one session). */
  maxConnections?: number;
  idleTimeoutMs?: number;
  relaxedDurability?: boolean;
  debug?: boolean;
  /** Give up if the server is not listening after this long. Default 120 s. */
  startTimeoutMs?: number;
  /** SIGKILL the child if it has not exited this long after SIGTERM. Default 30 s. */
  stopTimeoutMs?: number;
  /** Path of pglite-server.mjs; defaults to the package's `assets/` copy (same from src and dist). */
  serverScript?: string;
}

interface ReadyLine {
  event: 'ready';
  host: string;
  port: number;
  url: string;
  pid: number;
}

type DumpReply = { type: 'dump'; id: string; data?: Uint8Array; error?: string };

export class EmbeddedPostgres {
  private stopping?: Promise<void>;
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly ready: ReadyLine,
    private readonly stopTimeoutMs: number,
  ) {
    this.exited = new Promise((done) => {
      if (child.exitCode !== null) done(child.exitCode);
      else child.once('exit', (code) => done(code));
    });
  }

  get url(): string {
    return this.ready.url;
  }
  get host(): string {
    return this.ready.host;
  }
  get port(): number {
    return this.ready.port;
  }
  /** pid of the server process. */
  get pid(): number {
    return this.ready.pid;
  }

  static async start(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
    const args: string[] = [
      '--host',
      options.host ?? '127.0.0.1',
      '--port',
      String(options.port ?? 0),
      '--max-connections',
      String(options.maxConnections ?? 1),
      '--idle-timeout',
      String(options.idleTimeoutMs ?? 0),
    ];
    if (options.dataDir) args.push('--data-dir', options.dataDir);
    if (options.extensions?.vector) args.push('--vector');
    if (options.extensions?.unaccent) args.push('--unaccent');
    if (options.extensions?.pg_trgm) args.push('--pg_trgm');
    if (options.extensions?.fuzzystrmatch) args.push('--fuzzystrmatch');
    if (options.extensions?.cube || options.extensions?.earthdistance) args.push('--cube');
    if (options.extensions?.earthdistance) args.push('--earthdistance');
    if (options.relaxedDurability) args.push('--relaxed-durability');
    if (options.debug) args.push('--debug');

    // A dump passed as bytes goes through a temp file (removed once started).
    let tempDir: string | undefined;
    if (options.loadDataDir instanceof Uint8Array) {
      tempDir = await mkdtemp(join(tmpdir(), 'embedded-pg-'));
      const file = join(tempDir, 'dump.tar.gz');
      await writeFile(file, options.loadDataDir);
      args.push('--load-data-dir', file);
    } else if (options.loadDataDir) {
      args.push('--load-data-dir', options.loadDataDir.file);
    }

    const child = fork(options.serverScript ?? join(__dirname, '..', 'assets', 'pglite-server.mjs'), args, {
      // Do not inherit the parent's loaders (ts-node, tsx, --inspect, ...).
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Structured clone over IPC, so dumps arrive as binary, not JSON.
      serialization: 'advanced',
    });

    try {
      const ready = await waitForReady(child, options.startTimeoutMs ?? 120_000);
      // The child stays referenced only while it runs; don't let its pipes
      // keep the parent alive on their own.
      child.stdout?.resume();
      return new EmbeddedPostgres(child, ready, options.stopTimeoutMs ?? 30_000);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    } finally {
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    }
  }

  /**
   * Dumps PGDATA as a tarball from the child over IPC. Uncompressed dumps are larger (about 40 MB
   * for an empty database) but load about twice as fast: the right trade for test templates.
   */
  dump(options: { compress?: boolean } = {}): Promise<Buffer> {
    const id = randomUUID();
    return new Promise<Buffer>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        const reply = message as DumpReply;
        if (reply?.type !== 'dump' || reply.id !== id) return;
        cleanup();
        if (reply.error || !reply.data) reject(new Error(`dump failed: ${reply.error ?? 'no data'}`));
        else resolve(Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength));
      };
      const onExit = () => {
        cleanup();
        reject(new Error('embedded postgres process exited during dump'));
      };
      const cleanup = () => {
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send({ type: 'dump', id, compress: options.compress ?? true });
    });
  }

  /** SIGTERM, wait for the clean shutdown; SIGKILL after stopTimeoutMs. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.child.exitCode === null && this.child.signalCode === null) {
        this.child.kill('SIGTERM');
        const timer = setTimeout(() => this.child.kill('SIGKILL'), this.stopTimeoutMs);
        const code = await this.exited;
        clearTimeout(timer);
        if (code !== 0) throw new Error(`embedded postgres process exited with code ${code}`);
      }
      if (this.child.connected) this.child.disconnect();
    })();
    return this.stopping;
  }
}

/** Resolves with the child's "ready" line; rejects if it exits first or times out. */
function waitForReady(child: ChildProcess, timeoutMs: number): Promise<ReadyLine> {
  return new Promise<ReadyLine>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(
      () => finish(new Error(`embedded postgres did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onStdout = (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const newline = stdout.indexOf('\n');
      if (newline === -1) return;
      try {
        const line = JSON.parse(stdout.slice(0, newline)) as ReadyLine;
        if (line.event === 'ready') finish(undefined, line);
      } catch {
        finish(new Error(`unexpected output from embedded postgres: ${stdout.slice(0, newline)}`));
      }
    };
    const onStderr = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      process.stderr.write(chunk); // keep server diagnostics visible
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(
        new Error(`embedded postgres exited before ready (code ${code}, signal ${signal}): ${stderr.trim()}`),
      );
    const finish = (error?: Error, line?: ReadyLine) => {
      clearTimeout(timer);
      child.stdout?.off('data', onStdout);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(line as ReadyLine);
    };
    child.stdout?.on('data', onStdout);
    child.stderr?.on('data', onStderr); // stays attached: later errors are forwarded too
    child.once('exit', onExit);
    child.once('error', (error) => finish(error));
  });
}
