// A built service run as a child process by the repository's own tools (`pnpm load`,
// `pnpm bench:tracing`, `pnpm check:preview`, `pnpm check:readme`): the process with its output
// written straight to a log file, readiness and a graceful stop (the free port comes from
// @rt/testing's `freePort`). Each tool compiles this file with its own
// (`tsc -b scripts/<tool>/tsconfig.json`, which includes `../common`).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A built service (`apps/<name>/dist/main.js`) running as a child process, its output in `logFile`. */
export interface ServiceChild {
  /** Names the service in messages. */
  name: string;
  base: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  /** Set when the process has exited (expectedly or not) or could not be started. */
  exit?: ProcessExit;
}

/** The last `lines` lines of a log file (for error messages). */
export async function tail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Runs the Node script `script` (an absolute path) in `cwd` with `env` on top of this process's
 * environment; its output goes straight to `logFile` (no piping through this process, which would
 * take CPU from a measurement).
 */
export function spawnLogged(
  script: string,
  options: { cwd: string; env: Record<string, string>; logFile: string },
): ChildProcess {
  const fd = openSync(options.logFile, 'a');
  try {
    return spawn(process.execPath, [script], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
}

/** Starts the built service `script` listening on `port` (`PORT`, set over `env`). */
export function startLogged<Name extends string>(
  name: Name,
  script: string,
  options: { cwd: string; port: number; env: Record<string, string>; logFile: string },
): ServiceChild & { name: Name } {
  const { port, logFile } = options;
  const child = spawnLogged(script, { ...options, env: { ...options.env, PORT: String(port) } });
  const service: ServiceChild & { name: Name } = {
    name,
    base: `http://127.0.0.1:${port}`,
    port,
    child,
    logFile,
  };
  child.once('exit', (code, signal) => (service.exit = { code, signal }));
  child.once('error', () => (service.exit = { code: null, signal: null }));
  return service;
}

/**
 * Resolves once `GET /health/ready` answers 200; throws if the process exits, time runs out or
 * `aborted()` says so. With `logTail`, the messages end with the last lines of the service's log.
 */
export async function waitReady(
  service: ServiceChild,
  timeoutMs: number,
  options: { aborted?: () => boolean; logTail?: boolean } = {},
): Promise<void> {
  const { aborted = () => false, logTail = false } = options;
  const withLog = async (message: string) =>
    logTail ? `${message}:\n${await tail(service.logFile)}` : message;
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !aborted()) {
    if (service.exit) {
      throw new Error(
        await withLog(
          `${service.name} exited during start-up (code ${service.exit.code}, signal ${service.exit.signal})`,
        ),
      );
    }
    try {
      const response = await fetch(`${service.base}/health/ready`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  if (aborted()) throw new Error('interrupted');
  throw new Error(await withLog(`${service.name} was not ready within ${timeoutMs / 1000} s`));
}

/** SIGTERM (the services shut down gracefully), then SIGKILL after `graceMs`. */
export async function stopService(service: { child: ChildProcess }, graceMs = 15_000): Promise<void> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
