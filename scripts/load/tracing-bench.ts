// `pnpm bench:tracing`: what tracing costs (docs/benchmarks.md "Tracing overhead").
//
// 1. Two fresh databases on the local PostgreSQL server (BENCH_DATABASE_URL, else
//    postgres://postgres@127.0.0.1:5432); both built services start once to be prepared through
//    their public APIs (the load run's preparation: organizations, tours with steps, a generated
//    catalogue of BENCH_OFFERS offers indexed with the built-in provider).
// 2. Rounds, off and on in turn (BENCH_ROUNDS pairs, default 2): both services restart on the same
//    databases, with tracing off (no OTEL_* variable), or on with every request sampled and
//    exported (OTLP http/protobuf, the default protocol) to a receiver on loopback that reads and
//    discards what it gets. Each round measures, with autocannon, `GET /api/tour/{id}` then a
//    hybrid search (`GET /travels?search=…`, built-in vectors), BENCH_SECONDS each after a warm-up.
// 3. The table: p50 and throughput per target and mode (the mean of the rounds), and on/off ratios.
//    An "on" round that exported nothing, or any non-2xx answer, fails the run.
import { freePort } from '@rt/testing';
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabases, databaseUrl, dropDatabases, planDatabase } from './database';
import { prepare, preparedBackendEnv, type LoadUser } from './prepare';
import { stopService, waitReady } from '../common/service-process';
import { createSuperAdmin, startService, type RunningService } from './services';

/** The repository, from this file's compiled copy in scripts/load/dist/load. */
const root = resolve(__dirname, '..', '..', '..', '..');
const env = process.env;
const ROUNDS = Number(env.BENCH_ROUNDS ?? 2);
const SECONDS = Number(env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = 3;
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 4);
const OFFERS = Number(env.BENCH_OFFERS ?? 2000);
const SEARCHES = [
  'lake hiking',
  'alpine wellness hotel',
  'city break museums',
  'family camping',
  'wine tasting',
];
const log = (line: string) => console.log(`[bench:tracing] ${line}`);

type Mode = 'off' | 'on';
interface Figures {
  p50: number;
  p99: number;
  rps: number;
}

/** An OTLP receiver that only drains: what it costs the machine is the exporter's share, not a parser's. */
class DrainingReceiver {
  exports = 0;
  bytes = 0;
  private readonly server: Server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (this.bytes += chunk.length));
    req.on('end', () => {
      this.exports += 1;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }
}

async function measure(
  url: string,
  headers: Record<string, string>,
  paths: string[],
  seconds: number,
): Promise<Figures> {
  let sent = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests: [
      { method: 'GET', setupRequest: (request) => ({ ...request, path: paths[sent++ % paths.length] }) },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average };
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(join(tmpdir(), 'rt-bench-tracing-'));
  const dir = (name: string) => join(workDir, name);
  await Promise.all(['logs', 'mail', 'images'].map((name) => mkdir(dir(name))));
  const plan = await planDatabase({ serverUrl: env.BENCH_DATABASE_URL, embedded: false });
  if (plan.kind !== 'server') throw new Error(`bench:tracing needs a PostgreSQL server: ${plan.reason}`);
  await createDatabases(plan);
  const receiver = new DrainingReceiver();
  const services: RunningService[] = [];
  try {
    const admin: LoadUser = {
      email: 'bench.admin@bench.example.com',
      password: `bench admin ${randomBytes(12).toString('hex')}`,
      hat: 'super-admin',
    };
    const common = { APP_ENV: 'local', LOG_LEVEL: 'warn', DB_MIGRATE_ON_START: 'true' };
    const backendEnv = {
      ...common,
      DATABASE_URL: databaseUrl(plan.serverUrl, plan.databases.backend),
      ...preparedBackendEnv(dir('mail'), dir('images'), admin),
    };
    const searchEnv = {
      ...common,
      DATABASE_URL: databaseUrl(plan.serverUrl, plan.databases.search),
      CATALOGUE_SOURCE: `generated:${OFFERS}`,
      EMBEDDING_PROVIDER: 'builtin',
    };
    // Whatever the calling shell says about tracing, each round sets it itself.
    for (const key of Object.keys(process.env)) if (key.startsWith('OTEL_')) delete process.env[key];
    await createSuperAdmin(root, backendEnv, join(dir('logs'), 'create-admin.log'));
    const ports = { backend: await freePort(), search: await freePort() };
    const start = async (extra: Record<string, string>, label: string) => {
      const backend = startService(
        root,
        'backend',
        ports.backend,
        { ...backendEnv, ...extra },
        join(dir('logs'), `backend-${label}.log`),
      );
      const search = startService(
        root,
        'search',
        ports.search,
        { ...searchEnv, ...extra },
        join(dir('logs'), `search-${label}.log`),
      );
      services.push(backend, search);
      await Promise.all([waitReady(backend, 180_000), waitReady(search, 600_000)]);
      return { backend, search };
    };
    const stop = async (running: { backend: RunningService; search: RunningService }) => {
      await Promise.all([stopService(running.backend), stopService(running.search)]);
    };

    log(`preparing (${OFFERS} offers)…`);
    const preparing = await start({}, 'prepare');
    const fixture = await prepare({
      root,
      backend: preparing.backend.base,
      search: preparing.search.base,
      mailDir: dir('mail'),
      admin,
      codes: 1000,
      offers: OFFERS,
      connections: CONNECTIONS,
      log: (line) => log(`prepare: ${line}`),
      aborted: () => false,
    });
    await stop(preparing);

    const endpoint = await receiver.start();
    const tracingOn = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_on' };
    const tourPaths = fixture.tours.map((tour) => `/api/tour/${tour.id}`);
    const searchPaths = SEARCHES.map((text) => `/travels?search=${encodeURIComponent(text)}&size=10`);
    const backendHeaders = {
      authorization: `Bearer ${fixture.adminTokens[0]}`,
      'x-viewing-as': 'super-admin',
      accept: 'application/json',
    };
    const results: Record<Mode, { tour: Figures[]; search: Figures[] }> = {
      off: { tour: [], search: [] },
      on: { tour: [], search: [] },
    };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of ['off', 'on'] as const) {
        const exportsBefore = receiver.exports;
        const running = await start(mode === 'on' ? tracingOn : {}, `${mode}-${round}`);
        await measure(running.backend.base, backendHeaders, tourPaths, WARMUP_SECONDS);
        const tour = await measure(running.backend.base, backendHeaders, tourPaths, SECONDS);
        await measure(running.search.base, {}, searchPaths, WARMUP_SECONDS);
        const search = await measure(running.search.base, {}, searchPaths, SECONDS);
        await stop(running);
        if (mode === 'on' && receiver.exports === exportsBefore)
          throw new Error('tracing was on, yet nothing was exported');
        if (mode === 'off' && receiver.exports !== exportsBefore)
          throw new Error('tracing was off, yet spans were exported');
        results[mode].tour.push(tour);
        results[mode].search.push(search);
        log(
          `round ${round} ${mode}: tour p50 ${tour.p50} ms, ${tour.rps.toFixed(0)} req/s; search p50 ${search.p50} ms, ${search.rps.toFixed(0)} req/s (load ${loadavg()[0].toFixed(2)})`,
        );
      }
    }

    const mean = (list: Figures[], key: keyof Figures) =>
      list.reduce((sum, figures) => sum + figures[key], 0) / list.length;
    console.log(
      `\nbench:tracing — ${ROUNDS} round(s) per mode, ${SECONDS} s per target, ${CONNECTIONS} connections, ${cpus().length} CPUs, ${OFFERS} offers; exported ${receiver.exports} batches (${(receiver.bytes / 1e6).toFixed(1)} MB)\n`,
    );
    console.log(
      '| target | off p50 ms | on p50 ms | p50 on/off | off req/s | on req/s | throughput on/off | off p99 ms | on p99 ms |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const target of ['tour', 'search'] as const) {
      const off = results.off[target];
      const on = results.on[target];
      const name = target === 'tour' ? '`GET /api/tour/{id}`' : 'hybrid search';
      console.log(
        `| ${name} | ${mean(off, 'p50').toFixed(2)} | ${mean(on, 'p50').toFixed(2)} | ${(mean(on, 'p50') / mean(off, 'p50')).toFixed(2)} | ${mean(off, 'rps').toFixed(0)} | ${mean(on, 'rps').toFixed(0)} | ${(mean(on, 'rps') / mean(off, 'rps')).toFixed(2)} | ${mean(off, 'p99').toFixed(1)} | ${mean(on, 'p99').toFixed(1)} |`,
      );
    }
  } finally {
    await Promise.all(services.map((service) => stopService(service)));
    await receiver.close();
    await dropDatabases(plan).catch(() => []);
    await rm(workDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[bench:tracing] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
