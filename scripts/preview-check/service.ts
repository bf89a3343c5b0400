import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The built search service (`apps/search/dist/main.js`) as a child process of the check. */
export interface SearchService {
  base: string;
  child: ChildProcess;
  logFile: string;
  exited?: { code: number | null; signal: NodeJS.Signals | null };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

export async function tail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Starts the built service as `pnpm start` does in a fresh checkout: the local environment (so
 * the preview is on by its default), an embedded database in `dataDir`, the demo catalogue
 * indexed before it listens. Variables a developer's shell may hold are blanked (empty = unset).
 */
export function startSearch(root: string, port: number, dataDir: string, logFile: string): SearchService {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(process.execPath, [join(root, 'apps/search/dist/main.js')], {
      cwd: join(root, 'apps/search'),
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        APP_ENV: '',
        DATABASE_URL: '',
        DATABASE_READ_URL: '',
        CATALOGUE_SOURCE: '',
        EMBEDDING_PROVIDER: '',
        SEARCH_PREVIEW: '',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', fd, fd],
    });
    const service: SearchService = { base: `http://127.0.0.1:${port}`, child, logFile };
    child.once('exit', (code, signal) => (service.exited = { code, signal }));
    child.once('error', () => (service.exited = { code: null, signal: null }));
    return service;
  } finally {
    closeSync(fd);
  }
}

/** Resolves once `GET /health/ready` answers 200; throws if the process exits or time runs out. */
export async function waitReady(service: SearchService, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (service.exited) {
      throw new Error(
        `the search service exited during start-up (code ${service.exited.code}, signal ${service.exited.signal}):\n` +
          (await tail(service.logFile)),
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
  throw new Error(
    `the search service was not ready within ${timeoutMs / 1000} s:\n${await tail(service.logFile)}`,
  );
}

/** SIGTERM (a graceful stop), then SIGKILL after `graceMs`. */
export async function stopSearch(service: SearchService, graceMs = 15_000): Promise<void> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
