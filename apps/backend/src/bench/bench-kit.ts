import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { migrateDatabase, urlOfDatabase, withClient } from '@rt/database';
import { NEST_APP_OPTIONS } from '@rt/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { AppModule } from '../app.module';
import { loadBackendConfig, type BackendConfig } from '../config';
import { backendMigrations } from '../database/migrations';
import { configureBackendHttp } from '../http';
import { UsersService } from '../users/users.service';

/**
 * What the backend's benchmarks share: ports, the service in this process or built as a child
 * process, percentiles.
 */

/** A database of the benchmark's own on a PostgreSQL server (see createBenchDatabase). */
export interface BenchDatabase {
  name: string;
  url: string;
  /** Drops it, its sessions ended (WITH FORCE). */
  drop(): Promise<void>;
}

/** Creates the empty database `name` on the server of `serverUrl`. */
export async function createBenchDatabase(serverUrl: string, name: string): Promise<BenchDatabase> {
  await withClient(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: urlOfDatabase(serverUrl, name),
    drop: async () => {
      await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

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

/** The backend in this process (see startBackendInProcess). */
export interface InProcessBackend {
  app: NestExpressApplication;
  config: BackendConfig;
  /** `http://127.0.0.1:<port>`, the port the OS gave. */
  base: string;
  /** A bearer token of the super-admin `bench@example.com`. */
  token: string;
}

/**
 * The backend in this process on `databaseUrl` (migrated first), without the mail worker, with
 * `env` over the local settings; listening on a loopback port, with a super-admin's access token.
 */
export async function startBackendInProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<InProcessBackend> {
  const database = { url: databaseUrl, singleSession: false };
  await migrateDatabase(database, 'backend', backendMigrations);
  const config = loadBackendConfig({
    ...process.env,
    APP_ENV: 'local',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    MAIL_WORKER_ENABLED: 'false',
    ...env,
  });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, database }), {
    ...NEST_APP_OPTIONS,
    logger: ['warn', 'error'],
  });
  try {
    configureBackendHttp(app, config);
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const users = app.get(UsersService);
    await users.createOrResetSuperAdmin({ email: 'bench@example.com', password: 'bench password 123' });
    const user = (await users.findByEmail('bench@example.com'))!;
    const token = await app.get(AccessTokensService).issue(user.id, 'bench');
    return { app, config, base, token };
  } catch (error) {
    await app.close();
    throw error;
  }
}
