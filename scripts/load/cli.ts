// `pnpm load`: both built services under a realistic mix of requests on loopback.
//
// 1. Throwaway databases: two fresh ones (one per service) on LOAD_DATABASE_URL / DATABASE_URL, else
//    on postgres://postgres@127.0.0.1:5432 if it answers, else the embedded database (PGlite) in a
//    temporary DATA_DIR. The backend migrates at start-up (APP_ENV=local); its super-admin comes
//    from `dist/cli/create-admin.js` (server) or the embedded demo seed (ADMIN_EMAIL/ADMIN_PASSWORD).
//    The search service migrates at start-up and builds its index from the deterministic generated
//    catalogue (CATALOGUE_SOURCE=generated:<offers>); the run waits for /health/ready.
// 2. Data through the public API (prepare.ts): organizations and invited managers who set their
//    password from the emailed link, activation codes in batches, images, providers, activities,
//    tours with steps.
// 3. A closed loop of `connections` requests in flight (driver.ts), kinds drawn by weight
//    (mix.ts), for a warm-up then the measured phase (bounded in time and in count).
// 4. The table on stdout, the same as JSON in .load-results/load.json. Exit 1 on any error: a
//    non-2xx answer, a connection error or a timeout. Children, databases and the temporary
//    directory are removed on every exit path (Ctrl-C included).
import { freePort } from '@rt/testing';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createDatabases, databaseUrl, type DatabasePlan, dropDatabases, planDatabase } from './database';
import { drive } from './driver';
import { MIX_WEIGHTS, requestMix } from './mix';
import { parseOptions, USAGE, type LoadOptions } from './options';
import { prepare, preparedBackendEnv, type LoadUser } from './prepare';
import { RunResources } from '../common/run-resources';
import { tail, waitReady } from '../common/service-process';
import { createSuperAdmin, startService, type RunningService } from './services';
import { summarize, table } from './stats';

/** The repository, from this file's compiled copy in scripts/load/dist/load. */
const root = resolve(__dirname, '..', '..', '..', '..');
const log = (line: string) => console.log(`[load] ${line}`);

/** The run's databases and how it is going; its folder and services are `resources`'. */
const state: {
  plan?: DatabasePlan;
  databasesCreated: boolean;
  interrupted: boolean;
  deadlinePassed: boolean;
} = { databasesCreated: false, interrupted: false, deadlinePassed: false };

// Everything is undone on every exit path (Ctrl-C included); no child survives the process.
const resources = new RunResources<RunningService>(log, {
  release: async () => {
    if (state.plan?.kind === 'server' && state.databasesCreated) {
      for (const problem of await dropDatabases(state.plan)) console.error(`[load] cleanup: ${problem}`);
    }
  },
});

const round2 = (value: number) => Math.round(value * 100) / 100;
const aborted = () => state.interrupted || state.deadlinePassed;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (state.interrupted) {
      console.error(`[load] ${signal} again: stopping at once`);
      process.exit(130);
    }
    state.interrupted = true;
    console.error(`[load] ${signal}: stopping (again to force)`);
  });
}

async function main(options: LoadOptions): Promise<number> {
  const deadline = setTimeout(() => {
    state.deadlinePassed = true;
    console.error(`[load] deadline of ${options.deadlineSeconds} s passed: stopping`);
    // Whatever is still waiting gets a minute, then the run is cut short.
    setTimeout(() => void resources.cleanup().finally(() => process.exit(1)), 60_000).unref();
  }, options.deadlineSeconds * 1000);
  deadline.unref();
  resources.keep = options.keep;

  for (const name of ['backend', 'search']) {
    if (!existsSync(join(root, 'apps', name, 'dist', 'main.js'))) {
      throw new Error(`apps/${name}/dist/main.js is missing: run \`pnpm build\` first (\`pnpm load\` does)`);
    }
  }
  resources.workDir = await mkdtemp(join(tmpdir(), 'rt-load-'));
  const dir = (name: string) => join(resources.workDir!, name);
  await Promise.all(['logs', 'mail', 'images'].map((name) => mkdir(dir(name))));

  const plan = await planDatabase(options);
  state.plan = plan;
  const databaseLabel =
    plan.kind === 'server' ? `${plan.label} (${plan.version})` : `${plan.label}: ${plan.reason}`;
  log(`database: ${databaseLabel}`);
  if (plan.kind === 'server') {
    await createDatabases(plan);
    state.databasesCreated = true;
  }
  const database = (name: 'backend' | 'search'): Record<string, string> =>
    plan.kind === 'server'
      ? { DATABASE_URL: databaseUrl(plan.serverUrl, plan.databases[name]) }
      : { DATABASE_URL: '', DATA_DIR: dir(`data-${name}`) };

  const admin: LoadUser = {
    email: 'load.admin@load.example.com',
    password: `load admin ${randomBytes(12).toString('hex')}`,
    hat: 'super-admin',
  };
  const common = { APP_ENV: 'local', LOG_LEVEL: options.logLevel, DB_MIGRATE_ON_START: 'true' };
  const backendEnv = {
    ...common,
    ...database('backend'),
    ...preparedBackendEnv(dir('mail'), dir('images'), admin),
  };
  const searchEnv = {
    ...common,
    ...database('search'),
    CATALOGUE_SOURCE: `generated:${options.offers}`,
    EMBEDDING_PROVIDER: 'builtin',
  };

  if (plan.kind === 'server') {
    log('creating the super-admin (backend dist/cli/create-admin.js, which migrates first)');
    await createSuperAdmin(root, backendEnv, join(dir('logs'), 'create-admin.log'));
  }
  const [backendPort, searchPort] = [await freePort(), await freePort()];
  log(
    `starting the built services: backend :${backendPort}, search :${searchPort} (LOG_LEVEL=${options.logLevel})`,
  );
  const backend = startService(root, 'backend', backendPort, backendEnv, join(dir('logs'), 'backend.log'));
  resources.services.push(backend);
  const search = startService(root, 'search', searchPort, searchEnv, join(dir('logs'), 'search.log'));
  resources.services.push(search);
  const startedAt = Date.now();
  await Promise.all([waitReady(backend, 180_000, { aborted }), waitReady(search, 600_000, { aborted })]);
  log(
    `both ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (search index: ${options.offers} offers)`,
  );

  const preparedAt = Date.now();
  const fixture = await prepare({
    root,
    backend: backend.base,
    search: search.base,
    mailDir: dir('mail'),
    admin,
    codes: options.codes,
    offers: options.offers,
    connections: options.connections,
    log: (line) => log(`prepare: ${line}`),
    aborted,
  });
  log(`prepared in ${((Date.now() - preparedAt) / 1000).toFixed(1)} s`);

  log(
    `driving ${options.connections} connections: ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s or ${options.maxRequests} requests`,
  );
  // Other work on the machine skews the figures: its load average goes into the report.
  const loadBefore = loadavg()[0];
  const result = await drive(requestMix(fixture), {
    connections: options.connections,
    warmupMs: options.warmupSeconds * 1000,
    durationMs: options.durationSeconds * 1000,
    maxRequests: options.maxRequests,
    requestTimeoutMs: options.requestTimeoutMs,
    ports: { backend: backendPort, search: searchPort },
    aborted,
    onProgress: (seconds, requests, errors) =>
      log(`  ${seconds.toFixed(0)} s: ${requests} requests, ${errors} errors`),
  });
  if (result.stoppedBy === 'aborted') throw new Error('stopped during the load (signal or deadline)');
  const loadAfter = loadavg()[0];

  const exits = resources.services
    .filter((service) => service.exit)
    .map(
      (service) =>
        `${service.name} exited during the run (code ${service.exit!.code}, signal ${service.exit!.signal})`,
    );
  const rows = summarize(result.recorders, result.measuredSeconds);
  const total = rows[rows.length - 1];
  const errors = total.errors + result.warmupErrors + exits.length;
  const cpu = cpus();
  const report = {
    startedAt: new Date(startedAt).toISOString(),
    node: process.version,
    machine: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      loadAverage1m: { before: round2(loadBefore), after: round2(loadAfter) },
    },
    database:
      plan.kind === 'server'
        ? { kind: 'server', server: plan.label, version: plan.version }
        : { kind: 'embedded', reason: plan.reason },
    connections: options.connections,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    maxRequests: options.maxRequests,
    requestTimeoutMs: options.requestTimeoutMs,
    measuredSeconds: Math.round(result.measuredSeconds * 100) / 100,
    stoppedBy: result.stoppedBy,
    services: {
      APP_ENV: 'local',
      LOG_LEVEL: options.logLevel,
      EMBEDDING_PROVIDER: 'builtin',
      CATALOGUE_SOURCE: searchEnv.CATALOGUE_SOURCE,
    },
    data: {
      organizations: fixture.organizations,
      activationCodes: fixture.codes,
      tours: fixture.tours.length,
      steps: fixture.tours.reduce((sum, tour) => sum + tour.stepIds.length, 0),
      imageUrls: fixture.imagePaths.length,
      offers: fixture.offers,
    },
    mix: MIX_WEIGHTS,
    warmup: {
      requests: result.warmupRequests,
      errors: result.warmupErrors,
      errorSamples: result.warmupSamples,
    },
    results: rows,
    errors,
    errorSamples: Object.fromEntries(
      result.recorders.filter((r) => r.samples.length > 0).map((r) => [r.kind, r.samples]),
    ),
    serviceExits: exits,
  };
  await mkdir(dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);

  console.log('');
  console.log(
    `Load: ${options.connections} connections, ${report.measuredSeconds} s measured (after ${options.warmupSeconds} s warm-up; stopped by ${result.stoppedBy}), ` +
      `Node ${process.version}, ${cpu.length} CPUs (load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after), database ${databaseLabel}`,
  );
  console.log(
    `Data: ${fixture.organizations} organizations, ${fixture.codes} activation codes, ${report.data.tours} tours / ${report.data.steps} steps, ${fixture.imagePaths.length} image URLs, ${fixture.offers} offers`,
  );
  console.log('');
  console.log(table(rows));
  console.log('');
  for (const exit of exits) console.error(`[load] ${exit}`);
  for (const [kind, samples] of Object.entries(report.errorSamples)) {
    console.error(`[load] errors of ${kind}:`);
    for (const sample of samples) console.error(`  ${sample}`);
  }
  if (result.warmupErrors > 0) {
    console.error(`[load] ${result.warmupErrors} errors during the warm-up:`);
    for (const sample of result.warmupSamples) console.error(`  ${sample}`);
  }
  log(`report: ${relative(root, options.out) || options.out}`);
  if (errors > 0) {
    for (const service of resources.services) {
      console.error(`[load] last lines of ${service.name}'s log:\n${await tail(service.logFile, 15)}`);
    }
    log(`FAILED: ${errors} error(s)`);
    return 1;
  }
  log('no errors');
  return 0;
}

/** Parses the options, runs, cleans up on every path, and exits with the outcome. */
async function run(): Promise<never> {
  let options: LoadOptions | undefined;
  try {
    options = parseOptions(process.argv.slice(2), process.env, root);
  } catch (error) {
    console.error(`[load] ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (!options) {
    console.log(USAGE);
    process.exit(0);
  }
  let code: number;
  try {
    code = await main(options);
  } catch (error) {
    console.error(`[load] ${error instanceof Error ? error.message : String(error)}`);
    if (!state.interrupted) {
      for (const service of resources.services) {
        console.error(`[load] last lines of ${service.name}'s log:\n${await tail(service.logFile, 15)}`);
      }
    }
    code = state.interrupted ? 130 : 1;
  }
  await resources.cleanup();
  process.exit(code);
}

void run();
