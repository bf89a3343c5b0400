import { join } from 'node:path';
import { spawnLogged, startLogged, tail, type ServiceChild } from '../common/service-process';

/** A built service (`apps/<name>/dist/main.js`) running as a child process of the load run. */
export interface RunningService extends ServiceChild {
  name: 'backend' | 'search';
}

/** Runs a one-shot command of a service (a CLI in its dist) to completion. */
async function runCommand(
  root: string,
  script: string,
  env: Record<string, string>,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const child = spawnLogged(join(root, script), { cwd: root, env, logFile });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await new Promise((done) =>
    child.once('exit', (c: number | null, s: NodeJS.Signals | null) => done([c, s])),
  )) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (code !== 0) {
    throw new Error(`${script} failed (code ${code}, signal ${signal}):\n${await tail(logFile)}`);
  }
}

/** The backend's super-admin, by its `dist/cli/create-admin.js` (which migrates first). */
export function createSuperAdmin(root: string, env: Record<string, string>, logFile: string): Promise<void> {
  return runCommand(root, 'apps/backend/dist/cli/create-admin.js', env, logFile, 120_000);
}

export function startService(
  root: string,
  name: 'backend' | 'search',
  port: number,
  env: Record<string, string>,
  logFile: string,
): RunningService {
  return startLogged(name, join(root, `apps/${name}/dist/main.js`), { cwd: root, port, env, logFile });
}
