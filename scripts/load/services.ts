import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A built service (`apps/<name>/dist/main.js`) running as a child process of the load run. */
export interface RunningService {
  name: 'backend' | 'search';
  base: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  /** Set when the process has exited (expectedly or not). */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

/** A loopback port free right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Runs `script` (relative to the repository root) with `env` on top of this process's
 * environment; its output goes straight to `logFile` (no piping through this process, which
 * would take CPU from the measurement).
 */
function spawnLogged(
  root: string,
  script: string,
  env: Record<string, string>,
  logFile: string,
): ChildProcess {
  const fd = openSync(logFile, 'a');
  try {
    return spawn(process.execPath, [join(root, script)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
}

/** The last `lines` lines of a log file (for error messages). */
export async function tail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** Runs a one-shot command of a service (a CLI in its dist) to completion. */
export async function runCommand(
  root: string,
  script: string,
  env: Record<string, string>,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const child = spawnLogged(root, script, env, logFile);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await new Promise((done) =>
    child.once('exit', (c: number | null, s: NodeJS.Signals | null) => done([c, s])),
  )) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (code !== 0) {
    throw new Error(`${script} failed (code ${code}, signal ${signal}):\n${await tail(logFile)}`);
  }
}

export function startService(
  root: string,
  name: 'backend' | 'search',
  port: number,
  env: Record<string, string>,
  logFile: string,
): RunningService {
  const child = spawnLogged(root, `apps/${name}/dist/main.js`, { ...env, PORT: String(port) }, logFile);
  const service: RunningService = { name, base: `http://127.0.0.1:${port}`, port, child, logFile };
  child.once('exit', (code, signal) => (service.exit = { code, signal }));
  return service;
}

/** Resolves once `GET /health/ready` answers 200; throws if the process exits or time runs out. */
export async function waitReady(
  service: RunningService,
  timeoutMs: number,
  aborted: () => boolean,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !aborted()) {
    if (service.exit) {
      throw new Error(
        `${service.name} exited during start-up (code ${service.exit.code}, signal ${service.exit.signal})`,
      );
    }
    try {
      const res = await fetch(`${service.base}/health/ready`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  if (aborted()) throw new Error('interrupted');
  throw new Error(`${service.name} was not ready within ${timeoutMs / 1000} s`);
}

/** SIGTERM (the services shut down gracefully), then SIGKILL after `graceMs`. */
export async function stopService(service: RunningService, graceMs = 15_000): Promise<void> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
