// Runs one image as the Kubernetes manifests do (migration Job, then the server) and checks it.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { type AddressInfo, connect, createServer, isIPv4, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { mustPodman, podman, RUN_FLAGS, SERVER_FLAGS, SERVER_NETWORK } from './podman';
import { CommandError, log, tail } from './shell';

export interface ServiceCheck {
  service: 'backend' | 'search';
  image: string;
  versionTag: string;
  /** The server's environment besides DATABASE_URL (secrets generated per run). */
  env: Record<string, string>;
  /** The port the image listens on (its EXPOSE and PORT), published on a free port of the host. */
  port: number;
  /** podman run arguments of the server (e.g. a read-only mount). */
  mounts: string[];
  /** Commands of the image run before the server, after the migration (each a fresh container). */
  before: { args: string[]; env?: Record<string, string> }[];
  /** What only this service does, against its base URL. */
  exercise: (base: string) => Promise<void>;
  /** The request kept in flight across SIGTERM: its body arrives only after the signal. */
  inFlight: { method: string; path: string; body: string; status: number };
}

/** The grace the pods give a process after the pre-stop pause (terminationGracePeriodSeconds 30 − 5 s). */
const GRACE_MS = 25_000;
const SHUTDOWN_GRACE_MS = 10_000;

export class CheckFailure extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expect(condition: boolean, message: string): void {
  if (!condition) throw new CheckFailure(message);
}

/** A fresh database on the machine's PostgreSQL, dropped by the returned function. */
async function freshDatabase(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = new Client({ connectionString: adminUrl });
      await again.connect();
      try {
        await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await again.end();
      }
    },
  };
}

/** A port nothing listens on, on the host's loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether an IPv4 address is in a subnet (`10.88.0.0/16`). */
function inSubnet(address: string | undefined, subnet: string): boolean {
  const [base, bits] = subnet.split('/');
  const value = (ip: string) => ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  if (!address || !isIPv4(address) || !isIPv4(base)) return false;
  const size = 2 ** (32 - Number(bits));
  return Math.floor(value(address) / size) === Math.floor(value(base) / size);
}

/**
 * The machine's PostgreSQL for the server on podman's bridge network, where 127.0.0.1 is the
 * container itself: a relay on the host, reached at the network's gateway, that forwards to the
 * database of `databaseUrl` (which may listen on loopback only). It listens on every interface (the
 * bridge's may not exist before the first container on it) and takes connections from that network
 * only. Answers the URL the container uses.
 */
async function databaseRelay(databaseUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const [network] = JSON.parse(await mustPodman(['network', 'inspect', SERVER_NETWORK])) as {
    subnets?: { subnet: string; gateway: string }[];
  }[];
  const subnet = network?.subnets?.find(({ gateway }) => isIPv4(gateway));
  if (!subnet) throw new CheckFailure(`podman's network ${SERVER_NETWORK} has no IPv4 subnet`);
  const target = new URL(databaseUrl);
  const targetHost = target.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (!inSubnet(client.remoteAddress, subnet.subnet)) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '0.0.0.0', () => resolve());
  });
  const url = new URL(databaseUrl);
  url.hostname = subnet.gateway;
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function logsOf(container: string): Promise<string> {
  return tail((await podman(['logs', container])).output, 80);
}

export async function checkService(check: ServiceCheck, adminUrl: string): Promise<void> {
  const id = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const database = await freshDatabase(adminUrl, `rt_image_check_${check.service}_${id}`);
  const port = await freePort();
  const envDir = mkdtempSync(join(tmpdir(), 'road-trip-image-check-'));
  const container = `rt-image-check-${check.service}-${id.replace('_', '-')}`;
  let relay: Awaited<ReturnType<typeof databaseRelay>> | undefined;
  const envFile = (extra: Record<string, string> = {}) => {
    const file = join(envDir, `${randomBytes(4).toString('hex')}.env`);
    const all = { ...check.env, DATABASE_URL: database.url, ...extra };
    writeFileSync(
      file,
      Object.entries(all)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
      { mode: 0o600 },
    );
    return file;
  };
  const step = (what: string) => log(`${check.service}: ${what}`);
  try {
    // 1. The migration Job's command, then the commands a release runs by hand (create-admin).
    for (const { args, env } of [{ args: ['node', 'dist/database/migrate.js'] }, ...check.before]) {
      step(args.join(' '));
      const outcome = await podman([
        'run',
        '--rm',
        ...RUN_FLAGS,
        '--read-only',
        '--tmpfs',
        '/tmp',
        '--env-file',
        envFile(env),
        check.image,
        ...args,
      ]);
      if (outcome.code !== 0)
        throw new CommandError(
          `${check.service}: ${args.join(' ')} exited with ${outcome.code}:`,
          outcome.output,
        );
    }

    // 2. The server, as the Deployment starts it (its own CMD, user, HOST and PORT), in a network
    // namespace of its own: reached through its published port, it must listen on every interface.
    relay = await databaseRelay(database.url);
    step(`server: its port ${check.port} published on 127.0.0.1:${port}`);
    await mustPodman([
      'run',
      '--detach',
      '--name',
      container,
      ...SERVER_FLAGS,
      '--publish',
      `127.0.0.1:${port}:${check.port}`,
      '--env-file',
      envFile({ DATABASE_URL: relay.url }),
      ...check.mounts,
      check.image,
    ]);
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const status = await fetch(`${base}/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      const state = (await podman(['inspect', '--format', '{{.State.Status}}', container])).output.trim();
      if (state !== 'running')
        throw new CheckFailure(
          `the server stopped before it was ready (${state}):\n${await logsOf(container)}`,
        );
      if (Date.now() > deadline)
        throw new CheckFailure(
          `GET /health/ready answered ${status} after 120 s:\n${await logsOf(container)}`,
        );
      await sleep(500);
    }
    step('GET /health/ready 200');

    // 3. Its process runs as uid 1000 and cannot change its code (owned by root).
    const status = await mustPodman(['exec', container, 'cat', '/proc/1/status']);
    const uids = /^Uid:\s+(.+)$/m.exec(status)?.[1].trim().split(/\s+/);
    expect(
      uids?.every((uid) => uid === '1000') === true,
      `the server's process runs as uid ${uids?.join('/')}, not 1000`,
    );
    const write = await podman([
      'exec',
      container,
      'node',
      '-e',
      "const fs=require('fs');for(const f of ['/app/dist/main.js','/app/package.json'])try{fs.appendFileSync(f,'');console.log('wrote '+f)}catch(e){console.log(f+': '+e.code)}" +
        ";try{fs.writeFileSync('/app/dist/added.js','');console.log('wrote /app/dist/added.js')}catch(e){console.log('/app/dist: '+e.code)}",
    ]);
    expect(
      write.code === 0 &&
        !write.output.includes('wrote') &&
        (write.output.match(/EACCES/g) ?? []).length === 3,
      `uid 1000 can write the code:\n${write.output}`,
    );
    step('process uid 1000; /app not writable (EACCES)');

    // 4. The image's HEALTHCHECK, run by podman inside the container.
    const health = await podman(['healthcheck', 'run', container]);
    expect(health.code === 0, `the image's HEALTHCHECK failed (${health.code}): ${health.output}`);
    step('HEALTHCHECK healthy');

    // 5. What only this service does.
    await check.exercise(base);

    // 6. SIGTERM with a request in flight: it is answered, and the process exits 0 within the grace.
    const half = Math.floor(check.inFlight.body.length / 2);
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `${check.inFlight.method} ${check.inFlight.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(check.inFlight.body)}\r\nConnection: close\r\n\r\n` +
        check.inFlight.body.slice(0, half),
    );
    await sleep(300);
    const signalled = Date.now();
    await mustPodman(['kill', '--signal', 'TERM', container]);
    const waited = podman(['wait', container]);
    await sleep(1500);
    expect(response === '', `the in-flight request was answered before its body was complete: ${response}`);
    // write, not end: a half-closed connection aborts its request (Node: httpAllowHalfOpen false).
    socket.write(check.inFlight.body.slice(half));
    const answered = await Promise.race([closed.then(() => true), sleep(GRACE_MS).then(() => false)]);
    const exit = await Promise.race([waited, sleep(GRACE_MS).then(() => undefined)]);
    const stoppedMs = Date.now() - signalled;
    const statusLine = response.split('\r\n')[0] ?? '';
    expect(
      answered && statusLine.includes(` ${check.inFlight.status} `),
      `the request in flight at SIGTERM was not finished (expected ${check.inFlight.status}): ${statusLine || 'no answer'}\n${await logsOf(container)}`,
    );
    expect(
      exit !== undefined && exit.output.trim() === '0',
      `after SIGTERM the server ${exit ? `exited with ${exit.output.trim()}` : `still ran after ${GRACE_MS} ms`}:\n${await logsOf(container)}`,
    );
    step(
      `SIGTERM: the request in flight answered ${check.inFlight.status}, exit 0 after ${(stoppedMs / 1000).toFixed(1)} s (grace ${GRACE_MS / 1000} s)`,
    );
  } finally {
    await podman(['rm', '--force', '--time', '0', container]);
    await relay?.close();
    rmSync(envDir, { recursive: true, force: true });
    await database.drop();
  }
}

export { SHUTDOWN_GRACE_MS };
