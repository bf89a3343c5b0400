import { ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPOSITORY_ROOT } from './built-services';
import { freePort } from './free-port';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface NodeProcessOptions {
  /** Names the process in messages. */
  name: string;
  /** The Node script to run (relative to `cwd`), with this Node. */
  script: string;
  args?: string[];
  /** Default: the repository's root. */
  cwd?: string;
  /** Set over the parent's environment. */
  env?: Record<string, string>;
  /** The parent's variables whose names match are not passed on (e.g. one pointing elsewhere). */
  withoutEnv?: RegExp;
  /** Past this many characters of output, only the latest half is kept (default: all of it). */
  keepOutput?: number;
  /** Each whole line the process writes (stdout and stderr), however much of the output is kept. */
  onLine?: (line: string) => void;
}

const running = new Set<NodeProcess>();

/**
 * A Node script run as a child process by a test (the built services, their commands, `pnpm
 * start`'s script): what it writes is collected, `exited` settles with its exit, `stop()` sends
 * SIGTERM, then SIGKILL when it takes too long. Every process not yet exited is in
 * `NodeProcess.stopAll()`, for an `afterAll`.
 */
export class NodeProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<ProcessExit>;
  private text = '';
  private partial = '';

  constructor(private readonly options: NodeProcessOptions) {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && !options.withoutEnv?.test(key)) env[key] = value;
    }
    this.child = spawn(process.execPath, [options.script, ...(options.args ?? [])], {
      cwd: options.cwd ?? REPOSITORY_ROOT,
      env: { ...env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.keep(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => this.keep(chunk));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    running.add(this);
    void this.exited.then(() => running.delete(this));
  }

  /** Stops every process started (and not exited) in this test file. */
  static async stopAll(graceMs?: number): Promise<void> {
    await Promise.all([...running].map((started) => started.stop(graceMs)));
  }

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the process wrote (stdout and stderr, as they came), or its latest part (`keepOutput`). */
  output(): string {
    return this.text;
  }

  /** The last `characters` of the output, under the process's name, for a failure's message. */
  tail(characters = 6000): string {
    return `--- ${this.name} (pid ${this.pid}) ---\n${this.text.slice(-characters)}`;
  }

  /**
   * Polls `url` until it answers 2xx and returns that answer; throws when the process exits first
   * or `timeoutMs` passes, with the last answer and the output's tail.
   */
  async waitForOk(url: string, timeoutMs: number, intervalMs = 250): Promise<Response> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let last: string;
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(2000, intervalMs)) });
        if (response.ok) return response;
        last = `${response.status} ${(await response.text()).slice(0, 500)}`;
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        last = cause?.code ?? (error as Error).name;
      }
      if (!this.alive || Date.now() > deadline) {
        const why = this.alive ? `not after ${timeoutMs} ms` : 'it exited';
        throw new Error(`${this.name}: ${url} did not answer 2xx (${why}; last: ${last}):\n${this.tail()}`);
      }
      await sleep(intervalMs);
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; settles once it has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    const exit = await Promise.race([this.exited, sleep(graceMs, undefined, { ref: false })]);
    if (!exit) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  private keep(chunk: Buffer): void {
    const text = chunk.toString();
    this.text += text;
    const { keepOutput, onLine } = this.options;
    if (onLine) {
      const lines = (this.partial + text).split('\n');
      this.partial = lines.pop() ?? '';
      lines.forEach(onLine);
    }
    if (keepOutput !== undefined && this.text.length > keepOutput) {
      this.text = this.text.slice(-Math.floor(keepOutput / 2));
    }
  }
}

/**
 * A built HTTP service as a process, on a loopback port free at its start (`PORT`, or the variable
 * `portVariable` names): `base` is its URL, `ready()` waits for `/health/ready`.
 */
export class ServiceProcess extends NodeProcess {
  private constructor(
    options: NodeProcessOptions,
    readonly base: string,
  ) {
    super(options);
  }

  static async start(options: NodeProcessOptions & { portVariable?: string }): Promise<ServiceProcess> {
    const port = await freePort();
    const { portVariable = 'PORT', ...rest } = options;
    return new ServiceProcess(
      { ...rest, env: { ...rest.env, [portVariable]: String(port) } },
      `http://127.0.0.1:${port}`,
    );
  }

  /** Waits until `path` answers 2xx (see waitForOk); answers how long that took, in milliseconds. */
  async ready(timeoutMs: number, intervalMs = 250, path = '/health/ready'): Promise<number> {
    const started = Date.now();
    await this.waitForOk(`${this.base}${path}`, timeoutMs, intervalMs);
    return Date.now() - started;
  }
}
