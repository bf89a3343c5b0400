import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the backend's benchmarks share: ports, the built service as a child process, percentiles. */

/** The `p`-th percentile (0–100) of unsorted samples, by rank `floor(p/100 · n)`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
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
 * The built backend (`dist/main.js`) in a child process on `databaseUrl` (already migrated) and
 * `port`, without the mail worker; resolves once `/health/ready` answers 200 (30 s at most).
 */
export async function startBuiltBackend(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'main.js')], {
    env: {
      ...process.env,
      APP_ENV: 'local',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      MAIL_WORKER_ENABLED: 'false',
      DB_MIGRATE_ON_START: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = new Agent({ keepAlive: true });
  for (let attempt = 0; attempt < 150; attempt++) {
    const status = await new Promise<number>((resolve) => {
      get({ host: '127.0.0.1', port, path: '/health/ready', agent }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', () => resolve(0));
    });
    if (status === 200) {
      agent.destroy();
      return child;
    }
    await sleep(200);
  }
  agent.destroy();
  child.kill('SIGTERM');
  throw new Error('the backend did not become ready');
}
