// `pnpm drill:restore`: a backup-and-restore drill, the way CloudNativePG backs up and recovers the
// production cluster (k8s/README.md, "Restoring the database"), on this machine.
//
// 1. A PostgreSQL server of the drill's own (initdb in a temporary folder, a free loopback port; the
//    machine's server is never touched), archiving every WAL segment with barman-cloud-wal-archive
//    to an S3-compatible server on loopback (s3rver, in this process).
// 2. Both built services on it (a database each; they migrate at start-up); the backend's
//    super-admin from its create-admin command; data written through their APIs; the search index
//    built from a small catalogue file.
// 3. A base backup (barman-cloud-backup); more writes and a search reindex; the restore point
//    (pg_create_restore_point, its time noted) with a snapshot of every table of both databases
//    (count and md5 of the rows); then a deliberate deletion and more writes, a reindex, and the
//    wait until the last write's segment is in the bucket (the RPO figure).
// 4. The primary is stopped and its data directory deleted. The restore, timed (the RTO): the base
//    backup fetched into a new data directory (barman-cloud-restore), recovery to the restore point
//    with barman-cloud-wal-restore as restore_command, promotion, both services started on it.
// 5. Every table compared with the snapshot (before the services start, so nothing else wrote);
//    the services then answer with what was written before the point and nothing after it.
// Everything started is stopped and the folder removed on every exit path.
import { freePort, postgresBinDir, serverUserForThisProcess, type RunAs } from '@rt/testing';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  spawnLogged,
  startLogged,
  stopService,
  tail,
  waitReady,
  type ServiceChild,
} from '../common/service-process';
import { RunResources } from '../common/run-resources';
import { archiveCommand, Barman, barmanEnv, ensureBarman, restoreCommand, type BarmanStore } from './barman';
import { catalogueVersions, fromNdjson, toNdjson } from './catalogue';
import {
  archivedThrough,
  formatFigures,
  parseOptions,
  restoredSegments,
  USAGE,
  type DrillFigures,
  type DrillOptions,
} from './figures';
import { S3RVER_CREDENTIALS, startObjectStore, type RunningObjectStore } from './object-store';
import { DrillServer, serverFolder } from './postgres';
import { compareSnapshots, describeDifference, takeSnapshot, type Snapshot } from './snapshot';
import {
  BackendApi,
  waitSearchTotal,
  writeAfterPoint,
  writeBeforeBackup,
  writeBeforePoint,
} from './workload';

/** The repository, from this file's compiled copy in scripts/drill-restore/dist/drill-restore. */
const root = resolve(__dirname, '..', '..', '..', '..');
const log = (line: string) => console.log(`[drill] ${line}`);
const seconds = (from: number, to = Date.now()) => (to - from) / 1000;

const DATABASES = ['backend', 'search'] as const;
/** The production Cluster's bucket and name (k8s/components/database/cluster.yaml), on loopback. */
const BUCKET = 'road-trip-db-backups';
const SERVER_NAME = 'road-trip-db';
const CATALOGUE_BASE = 300;
const CATALOGUE_ADDED = 20;

/** The servers and the object store, which the services' cleanup leaves to the drill. */
const state: { servers: DrillServer[]; store?: RunningObjectStore } = { servers: [] };

// Everything started is stopped on every exit path; no child or server survives the process.
const resources = new RunResources(log, {
  release: async () => {
    for (const server of state.servers) await server.stop('immediate').catch(() => undefined);
    await state.store?.close().catch(() => undefined);
  },
  releaseNow: () => {
    for (const server of state.servers) server.stopNow();
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`[drill] ${signal}: stopping`);
    void resources.cleanup().finally(() => process.exit(130));
  });
}

interface ServiceSet {
  backend: ServiceChild;
  search: ServiceChild;
}

async function startServices(
  label: string,
  server: DrillServer,
  env: { backend: Record<string, string>; search: Record<string, string> },
  logs: string,
): Promise<ServiceSet> {
  const start = async (name: 'backend' | 'search') =>
    startLogged(name, join(root, `apps/${name}/dist/main.js`), {
      cwd: root,
      port: await freePort(),
      env: { ...env[name], DATABASE_URL: server.url(name) },
      logFile: join(logs, `${name}-${label}.log`),
    });
  const backend = await start('backend');
  resources.services.push(backend);
  const search = await start('search');
  resources.services.push(search);
  await Promise.all([
    waitReady(backend, 180_000, { logTail: true }),
    waitReady(search, 300_000, { logTail: true }),
  ]);
  return { backend, search };
}

async function stopServices(services: ServiceSet): Promise<void> {
  await Promise.all([stopService(services.backend), stopService(services.search)]);
  resources.services = resources.services.filter((s) => s !== services.backend && s !== services.search);
}

/** Runs a service's command (apps/<name>/dist/cli/…) to its end. */
async function runServiceCommand(
  script: string,
  env: Record<string, string>,
  logFile: string,
): Promise<void> {
  const child = spawnLogged(join(root, script), { cwd: root, env, logFile });
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  if (code !== 0) throw new Error(`${script} failed (code ${code}):\n${await tail(logFile)}`);
}

/** `GET /reindex` and the wait for its `reindex_runs` row: it must have succeeded. */
async function reindex(server: DrillServer, searchBase: string): Promise<void> {
  const lastRun = async () =>
    (await server.query<{ id: number | null }>('SELECT max(id) AS id FROM reindex_runs', [], 'search'))[0]
      .id ?? 0;
  const before = await lastRun();
  const res = await fetch(`${searchBase}/reindex`, { signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`search: GET /reindex answered ${res.status}`);
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const runs = await server.query<{ status: string; error: string | null }>(
      'SELECT status, error FROM reindex_runs WHERE id > $1 ORDER BY id',
      [before],
      'search',
    );
    if (runs.length > 0) {
      if (runs[0].status !== 'succeeded')
        throw new Error(`search: reindex ${runs[0].status}: ${runs[0].error}`);
      return;
    }
    await sleep(200);
  }
  throw new Error('search: the reindex did not finish within 120 s');
}

async function main(options: DrillOptions): Promise<DrillFigures> {
  const runStarted = Date.now();
  resources.keep = options.keep;
  for (const name of DATABASES) {
    if (!existsSync(join(root, 'apps', name, 'dist', 'main.js'))) {
      throw new Error(
        `apps/${name}/dist/main.js is missing: run \`pnpm build\` first (\`pnpm drill:restore\` does)`,
      );
    }
  }
  log(`barman-cloud: ${ensureBarman(log)}`);
  const binDir = postgresBinDir();
  const runAs: RunAs | undefined = serverUserForThisProcess();

  resources.workDir = await mkdtemp(join(tmpdir(), 'rt-drill-'));
  const dir = (name: string) => join(resources.workDir!, name);
  // The server user must reach its folders inside.
  if (runAs) await chown(resources.workDir, runAs.uid, runAs.gid);
  await Promise.all(['logs', 'bucket', 'mail', 'images'].map((name) => mkdir(dir(name))));

  const objectStore = await startObjectStore(root, dir('bucket'), BUCKET);
  state.store = objectStore;
  const store: BarmanStore = {
    endpointUrl: objectStore.endpointUrl,
    destination: `s3://${BUCKET}/`,
    serverName: SERVER_NAME,
    ...S3RVER_CREDENTIALS,
  };
  const barman = new Barman(store, runAs);
  /** A server of the drill in its own folder, on a free port, archiving to and restoring from the bucket. */
  const newServer = async (name: string) => {
    await serverFolder(dir(name), runAs);
    const server = new DrillServer(name, dir(name), await freePort(), binDir, runAs, barmanEnv(store));
    state.servers.push(server);
    return server;
  };
  log(`object store: s3rver on ${objectStore.endpointUrl}, ${store.destination}${store.serverName}`);

  // 1. The primary, archiving its WAL to the bucket.
  const primary = await newServer('primary');
  await primary.initdb();
  await primary.configure({
    wal_level: 'replica',
    archive_mode: 'on',
    archive_command: archiveCommand(store),
    archive_timeout: `${options.archiveTimeoutSeconds}s`,
    // No machine crash is simulated: the OS keeps what the server wrote, and the drill runs faster.
    fsync: 'off',
  });
  await primary.start();
  for (const name of DATABASES) await primary.query(`CREATE DATABASE ${name}`);
  const [{ server_version: version }] = await primary.query<{ server_version: string }>(
    'SHOW server_version',
  );
  log(
    `primary: PostgreSQL ${version} on 127.0.0.1:${primary.port}, archive_timeout ${options.archiveTimeoutSeconds} s`,
  );

  // 2. The services and the first writes.
  const catalogueFile = dir('catalogue.ndjson');
  const generated = dir('generated.ndjson');
  execFileSync(
    process.execPath,
    [
      join(root, 'apps/search/dist/cli/generate-catalogue.js'),
      '--count',
      String(CATALOGUE_BASE + CATALOGUE_ADDED),
      '--out',
      generated,
    ],
    { stdio: 'ignore' },
  );
  const catalogue = catalogueVersions(fromNdjson(await readFile(generated, 'utf8')), CATALOGUE_BASE);
  await writeFile(catalogueFile, toNdjson(catalogue.initial));

  const admin = {
    email: 'drill.admin@drill.example.com',
    password: `drill admin ${randomBytes(12).toString('hex')}`,
  };
  const common = { APP_ENV: 'local', LOG_LEVEL: 'info', DB_MIGRATE_ON_START: 'true' };
  const env = {
    backend: {
      ...common,
      SMTP_URL: '',
      // Invitations stay in the outbox: no background writer while the drill takes its snapshots.
      MAIL_WORKER_ENABLED: 'false',
      MAIL_DIR: dir('mail'),
      IMAGE_STORAGE: 'local',
      IMAGE_DIR: dir('images'),
      IMGPROXY_KEY: randomBytes(32).toString('hex'),
      IMGPROXY_SALT: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    },
    search: {
      ...common,
      DATABASE_READ_URL: '',
      CATALOGUE_SOURCE: catalogueFile,
      EMBEDDING_PROVIDER: 'builtin',
    },
  };
  log(
    'backend: create-admin (migrates first); both services started on the primary (the search service migrates and indexes the catalogue)',
  );
  await runServiceCommand(
    'apps/backend/dist/cli/create-admin.js',
    { ...env.backend, DATABASE_URL: primary.url('backend') },
    dir('logs/create-admin.log'),
  );
  let services = await startServices('primary', primary, env, dir('logs'));
  await waitSearchTotal(services.search.base, catalogue.initial.length, 120_000);
  const api = new BackendApi(services.backend.base);
  await api.signIn(admin.email, admin.password);
  let written = await writeBeforeBackup(api);
  log(
    `written before the base backup: ${written.tagIds.length} tags, ${written.organizationIds.length} organizations, ${written.activityIds.length} activities; ${catalogue.initial.length} offers indexed`,
  );

  // 3. The base backup, more writes, the restore point.
  const backupStarted = Date.now();
  await barman.backup(primary.port, 'drill-base');
  const backupSeconds = seconds(backupStarted);
  log(`base backup (barman-cloud-backup, gzip): ${backupSeconds.toFixed(1)} s`);

  written = await writeBeforePoint(api, written);
  await writeFile(catalogueFile, toNdjson(catalogue.atPoint));
  await reindex(primary, services.search.base);
  await waitSearchTotal(services.search.base, catalogue.atPoint.length, 60_000);
  log(
    `written after the backup: tags, organizations, activities, ${written.tourIds.length} tours with steps, 150 activation codes; reindex to ${catalogue.atPoint.length} offers`,
  );

  const urls = (server: DrillServer) => Object.fromEntries(DATABASES.map((name) => [name, server.url(name)]));
  let atPoint: Snapshot | undefined;
  let pointName = '';
  let pointTime = '';
  for (let attempt = 1; attempt <= 10 && !atPoint; attempt++) {
    const before = await takeSnapshot(urls(primary));
    pointName = `drill-${Date.now()}`;
    const [row] = await primary.query<{ time: string }>(
      `SELECT pg_create_restore_point($1), to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS time`,
      [pointName],
    );
    pointTime = row.time;
    const after = await takeSnapshot(urls(primary));
    // Unchanged across the restore point: this is the state at it.
    if (compareSnapshots(before, after, { afterRecovery: false }).differences.length === 0) atPoint = after;
    else await sleep(500);
  }
  if (!atPoint) throw new Error('the databases kept changing around the restore point (10 attempts)');
  const pointSummary = compareSnapshots(atPoint, atPoint, { afterRecovery: false });
  log(
    `restore point "${pointName}" at ${pointTime}: ${pointSummary.tables} tables, ${pointSummary.rows} rows snapshotted`,
  );

  // After the point: the deliberate deletion and more writes.
  const after = await writeAfterPoint(api, written);
  await writeFile(catalogueFile, toNdjson(catalogue.after));
  await reindex(primary, services.search.base);
  await waitSearchTotal(services.search.base, catalogue.after.length, 60_000);
  await api.call('PUT', `/tags/${after.newTagId}`, { body: { icon: 'drill-last-write' } });
  const lastWriteAt = Date.now();
  const [{ walfile }] = await primary.query<{ walfile: string }>(
    'SELECT pg_walfile_name(pg_current_wal_lsn()) AS walfile',
  );
  const atDisaster = await takeSnapshot(urls(primary));
  const changed = compareSnapshots(atPoint, atDisaster, { afterRecovery: false }).differences;
  if (!changed.some((d) => d.table === 'public.tags'))
    throw new Error('the writes after the point changed no tag');
  log(
    `after the point: tag and tour deleted, 50 codes cancelled, an organization suspended, new rows, reindex to ${catalogue.after.length} offers; ${changed.length} tables differ from the point (${changed.map((d) => `${d.database}.${d.table}`).join(', ')})`,
  );

  // RPO: how long the last write lived on the primary alone.
  let lastArchived: string | null = null;
  while (!archivedThrough(lastArchived, walfile)) {
    if (seconds(lastWriteAt) > options.archiveTimeoutSeconds + 120) {
      throw new Error(
        `segment ${walfile} not archived ${options.archiveTimeoutSeconds + 120} s after the last write (last: ${lastArchived})`,
      );
    }
    await sleep(100);
    [{ last_archived_wal: lastArchived }] = await primary.query<{ last_archived_wal: string | null }>(
      'SELECT last_archived_wal FROM pg_stat_archiver',
    );
  }
  const lastWriteArchivedSeconds = seconds(lastWriteAt);
  log(
    `the last write's segment ${walfile} was in the bucket ${lastWriteArchivedSeconds.toFixed(1)} s after the write`,
  );

  // 4. The disaster: the primary and its data are gone.
  await stopServices(services);
  await primary.stop('immediate');
  state.servers = state.servers.filter((server) => server !== primary);
  await rm(primary.dataDir, { recursive: true, force: true });
  log('primary stopped (immediate) and its data directory deleted');

  // The restore, timed.
  const restoreStarted = Date.now();
  const restored = await newServer('restored');
  const backup = await barman.newestBackup();
  await barman.restore(backup.backup_id, restored.dataDir);
  const fetched = Date.now();
  await chmod(restored.dataDir, 0o700);
  await restored.configure({
    restore_command: restoreCommand(store),
    ...(options.target === 'name'
      ? { recovery_target_name: pointName }
      : { recovery_target_time: pointTime }),
    recovery_target_action: 'promote',
    // The restored server does not archive into the old server's place (CloudNativePG: a new serverName).
    archive_mode: 'off',
  });
  const signal = join(restored.dataDir, 'recovery.signal');
  await writeFile(signal, '');
  if (runAs) await chown(signal, runAs.uid, runAs.gid);
  await restored.start();
  await restored.waitPromoted(300_000);
  const promoted = Date.now();
  const segmentsRestored = restoredSegments(await readFile(restored.logFile, 'utf8'));
  log(
    `restored: backup ${backup.backup_id} fetched in ${seconds(restoreStarted, fetched).toFixed(1)} s, recovery to ${options.target === 'name' ? `"${pointName}"` : pointTime} and promotion in ${seconds(fetched, promoted).toFixed(1)} s (${segmentsRestored} segments)`,
  );

  // 5. Every table against the restore point, before anything else writes.
  const verifyStarted = Date.now();
  const restoredSnapshot = await takeSnapshot(urls(restored));
  const comparison = compareSnapshots(atPoint, restoredSnapshot, { afterRecovery: true });
  const verifySeconds = seconds(verifyStarted);
  if (comparison.differences.length > 0) {
    throw new Error(
      `the restored databases differ from the restore point in ${comparison.differences.length} tables:\n` +
        comparison.differences.map(describeDifference).join('\n'),
    );
  }
  log(
    `verified: ${comparison.equal} tables equal (count and md5), ${comparison.rows} rows${comparison.unloggedEmptied.length ? `; unlogged, empty after recovery by design: ${comparison.unloggedEmptied.join(', ')}` : ''}`,
  );

  const servicesStarted = Date.now();
  services = await startServices('restored', restored, env, dir('logs'));
  const servicesSeconds = seconds(servicesStarted);
  const rto = {
    fetchSeconds: seconds(restoreStarted, fetched),
    replaySeconds: seconds(fetched, promoted),
    servicesSeconds,
    totalSeconds: seconds(restoreStarted, fetched) + seconds(fetched, promoted) + servicesSeconds,
  };

  // The services answer with the restore point's data.
  await waitSearchTotal(services.search.base, catalogue.atPoint.length, 30_000);
  const restoredApi = new BackendApi(services.backend.base);
  await restoredApi.signIn(admin.email, admin.password);
  const tags = await restoredApi.call<{ data: { id: string }[] }>('GET', '/tags?per_page=1000');
  const tagIds = new Set(tags.data.map((t) => t.id));
  if (!tagIds.has(after.deletedTagId)) throw new Error('the tag deleted after the point is missing');
  if (tagIds.has(after.newTagId)) throw new Error('the tag created after the point is there');
  if (tags.data.length !== written.tagIds.length)
    throw new Error(`${tags.data.length} tags, expected ${written.tagIds.length}`);
  await restoredApi.call('GET', `/tour/${after.deletedTourId}`);
  const organizations = await restoredApi.call<{ data: { id: string }[] }>(
    'GET',
    '/organizations?per_page=100',
  );
  if (organizations.data.some((o) => o.id === after.newOrganizationId)) {
    throw new Error('the organization created after the point is there');
  }
  log(
    `services on the restored server: ${tags.data.length} tags (the deleted one back, the later one absent), the deleted tour back, ${catalogue.atPoint.length} offers listed`,
  );
  const touched = compareSnapshots(atPoint, await takeSnapshot(urls(restored)), {
    afterRecovery: true,
  }).differences;
  log(
    `written since by the services' start and the checks: ${touched.map((d) => `${d.database}.${d.table}`).join(', ') || 'nothing'}`,
  );
  await stopServices(services);

  return {
    target:
      options.target === 'name'
        ? `recovery_target_name '${pointName}'`
        : `recovery_target_time '${pointTime}'`,
    archiveTimeoutSeconds: options.archiveTimeoutSeconds,
    lastWriteArchivedSeconds,
    backupSeconds,
    segmentsRestored,
    rto,
    verifySeconds,
    tables: comparison.tables,
    rows: comparison.rows,
    runSeconds: seconds(runStarted),
  };
}

let options: DrillOptions | 'help';
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  console.log(USAGE);
} else {
  main(options)
    .then(async (figures) => {
      await resources.cleanup();
      for (const line of formatFigures(figures)) log(line);
    })
    .catch(async (error: unknown) => {
      console.error(`[drill] FAILED: ${error instanceof Error ? error.message : String(error)}`);
      await resources.cleanup();
      process.exitCode = 1;
    });
}
