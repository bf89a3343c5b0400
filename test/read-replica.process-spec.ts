import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BUILT,
  NodeProcess,
  SEARCH_RUNNER_ENV,
  ServiceProcess,
  ThrowawayCluster,
  waitFor,
} from '@rt/testing';

/**
 * The search service on a real streaming replica (D-64; apps/search/README.md, "Read
 * replicas"): a throwaway primary and a hot standby made from it with `pg_basebackup -R`; the built
 * service (`pnpm check:process` builds first) reads from the standby (`DATABASE_READ_URL`) and
 * rebuilds on the primary (`DATABASE_URL`), with the offline built-in embedding provider.
 */
const DATABASE = 'search_replicated';
const CATALOGUE_SIZE = 600;
/** DATABASE_READ_MAX_LAG_SECONDS of the service: short, so the test sees readiness turn. */
const MAX_LAG_SECONDS = 2;

interface Offer {
  id: string;
  name: string;
  [key: string]: unknown;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

let workDir: string;
let primary: ThrowawayCluster | undefined;
let standby: ThrowawayCluster | undefined;
let service: ServiceProcess | undefined;
let catalogueFile: string;
let offers: Offer[] = [];

async function get(path: string): Promise<Answer> {
  const response = await fetch(`${service!.base}${path}`, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // the metrics' text format
  }
  return { status: response.status, body, headers: response.headers };
}

/** totalRecords of a search, which must answer 200. */
async function total(search: string): Promise<number> {
  const answer = await get(`/travels?size=1&infoDensity=min&search=${encodeURIComponent(search)}`);
  if (answer.status !== 200)
    throw new Error(`search ${search} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { totalRecords: number }).totalRecords;
}

/** The names of a filter-only page (id order): which catalogue the read database holds. */
async function names(): Promise<string[]> {
  const answer = await get('/travels?size=20&infoDensity=min');
  if (answer.status !== 200)
    throw new Error(`listing answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { records: { name: string }[] }).records.map((record) => record.name);
}

const allCarry = (list: string[], marker: string) =>
  list.length > 0 && list.every((name) => name.endsWith(` ${marker}`));

async function lagMetric(): Promise<number> {
  const line = String((await get('/metrics')).body)
    .split('\n')
    .find((candidate) => candidate.startsWith('database_replica_lag_seconds '));
  return line ? Number(line.split(' ')[1]) : Number.NaN;
}

async function writeCatalogue(records: Offer[]): Promise<void> {
  await writeFile(`${catalogueFile}.tmp`, records.map((offer) => JSON.stringify(offer)).join('\n') + '\n');
  await rename(`${catalogueFile}.tmp`, catalogueFile);
}

/** Every offer renamed to carry `marker`: a reindex re-embeds and rewrites all of them. */
const marked = (marker: string): Offer[] =>
  offers.map((offer) => ({ ...offer, name: `${offer.name} ${marker}` }));

/** Offers carrying `marker` on a cluster, and all offers, in one snapshot. */
async function countOn(cluster: ThrowawayCluster, marker: string): Promise<{ marked: number; all: number }> {
  const [row] = await cluster.query<{ marked: number; all: number }>(
    `SELECT count(*) FILTER (WHERE name LIKE '%' || $1)::int AS marked, count(*)::int AS "all" FROM travel_offers`,
    [` ${marker}`],
    DATABASE,
  );
  return row;
}

const lastRunId = async () =>
  (await primary!.query<{ id: number | null }>('SELECT max(id) AS id FROM reindex_runs', [], DATABASE))[0]
    .id ?? 0;

const REINDEX_STARTED = 'Reindex started in the background.';

/**
 * GET /reindex, then the run it records on the primary. A run already going (the service's own
 * first build of an empty catalogue may still hold the lock when it reports ready) is waited out:
 * the request is sent again until it starts a run of its own, `before` read just ahead of it.
 */
async function reindex(): Promise<{ status: string; updated: number }> {
  let before = 0;
  await waitFor(
    async () => {
      before = await lastRunId();
      const answer = await get('/reindex');
      expect(answer.status).toBe(200);
      const { message } = answer.body as { message: string };
      if (message === REINDEX_STARTED) return message;
      expect(message).toBe('A reindex is already running; this request was ignored.');
      return undefined;
    },
    60_000,
    'GET /reindex to start a run of its own',
    250,
  );
  return waitFor(
    async () =>
      (
        await primary!.query<{ status: string; updated: number }>(
          'SELECT status, updated FROM reindex_runs WHERE id > $1 ORDER BY id LIMIT 1',
          [before],
          DATABASE,
        )
      )[0],
    60_000,
    'the reindex run to be recorded on the primary',
  );
}

describe('search on a streaming replica', () => {
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'rt-read-replica-'));
    catalogueFile = join(workDir, 'catalogue.ndjson');
    const generated = join(workDir, 'generated.ndjson');
    const generator = new NodeProcess({
      name: 'generator',
      script: BUILT.searchGenerateCatalogue,
      args: ['--count', String(CATALOGUE_SIZE), '--out', generated],
    });
    primary = await ThrowawayCluster.create();
    const [exit] = await Promise.all([generator.exited, primary.createDatabase(DATABASE)]);
    expect(exit).toEqual({ code: 0, signal: null });
    offers = (await readFile(generated, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Offer);
    await writeCatalogue(offers);
    standby = await primary.createStandby();
    await standby.waitForReplayOf(primary);
    service = await ServiceProcess.start({
      name: 'search',
      script: BUILT.searchMain,
      withoutEnv: SEARCH_RUNNER_ENV,
      keepOutput: 4_000_000,
      env: {
        APP_ENV: 'local',
        LOG_LEVEL: 'warn',
        DATABASE_URL: primary.url(DATABASE),
        DATABASE_READ_URL: standby.url(DATABASE),
        DATABASE_READ_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
        DB_MIGRATE_ON_START: 'true',
        DB_POOL_SIZE: '4',
        SHUTDOWN_GRACE_MS: '2000',
        CATALOGUE_SOURCE: catalogueFile,
        EMBEDDING_PROVIDER: 'builtin',
        REINDEX_BATCH_SIZE: '100',
      },
    });
    // Ready once the first build is applied on the primary and the standby is within the bound.
    await service.ready(90_000, 100);
    await waitFor(
      async () => ((await total(offers[0].name)) > 0 ? true : undefined),
      30_000,
      'the replica to hold the first build',
    );
  }, 180_000);

  afterAll(async () => {
    await NodeProcess.stopAll(15_000);
    await standby?.destroy();
    await primary?.destroy();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }, 60_000);

  const failWithLogs = async (error: unknown): Promise<never> => {
    throw new Error(
      `${String((error as Error).stack ?? error)}\n${service?.tail(8000) ?? ''}\n--- standby ---\n${(await standby?.log())?.slice(-4000) ?? ''}`,
    );
  };

  it('serves searches from the replica while the primary reindexes, and the replica never shows a mix of catalogues', async () => {
    try {
      const marker = 'halyard';
      await writeCatalogue(marked(marker));
      const observed = { service: new Set<string>(), replica: new Set<string>(), samples: 0 };
      let reindexing = true;
      const watch = async () => {
        while (reindexing) {
          const [page, onReplica] = await Promise.all([names(), countOn(standby!, marker), total(marker)]);
          const carrying = page.filter((name) => name.endsWith(` ${marker}`)).length;
          observed.service.add(carrying === 0 ? 'old' : carrying === page.length ? 'new' : 'mixed');
          observed.replica.add(`${onReplica.marked}/${onReplica.all}`);
          observed.samples++;
          await sleep(20);
        }
      };
      const watching = Promise.all([watch(), watch()]);
      const run = await reindex();
      // The replica replays the apply transaction: give the watchers time to see it land.
      await waitFor(
        async () => ((await countOn(standby!, marker)).marked > 0 ? true : undefined),
        30_000,
        'the replica to replay the reindex',
      );
      await sleep(300);
      reindexing = false;
      await watching;

      expect(run).toMatchObject({ status: 'succeeded', updated: CATALOGUE_SIZE });
      expect(observed.samples).toBeGreaterThan(10);
      // Old catalogue (no offer carries the marker) or new (every offer does): nothing between.
      const whole = [`0/${CATALOGUE_SIZE}`, `${CATALOGUE_SIZE}/${CATALOGUE_SIZE}`];
      expect([...observed.replica].filter((state) => !whole.includes(state))).toEqual([]);
      expect(observed.replica.has(whole[0]) && observed.replica.has(whole[1])).toBe(true);
      // Each listing page (its total and rows one snapshot of the replica) is one catalogue whole.
      expect([...observed.service].sort()).toEqual(['new', 'old']);
      expect(await total(marker)).toBe(CATALOGUE_SIZE);
      // The listings' connections are on the standby; the primary has none of the read pool's.
      const readers = await standby!.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'search-read'`,
      );
      expect(readers[0].n).toBeGreaterThan(0);
      const onPrimary = await primary!.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'search-read'`,
      );
      expect(onPrimary[0].n).toBe(0);
    } catch (error) {
      await failWithLogs(error);
    }
  }, 120_000);

  it('goes unready while the replica lags beyond the bound, keeps answering from the old catalogue, and is ready again once it catches up', async () => {
    try {
      await waitFor(
        async () => ((await lagMetric()) === 0 ? true : undefined),
        30_000,
        'the replica to catch up',
      );
      const marker = 'tamarisk';
      const searchedBefore = await total(marker);
      await standby!.pauseReplay(true);
      await writeCatalogue(marked(marker));
      const run = await reindex();
      expect(run).toMatchObject({ status: 'succeeded', updated: CATALOGUE_SIZE });
      expect(await countOn(primary!, marker)).toEqual({ marked: CATALOGUE_SIZE, all: CATALOGUE_SIZE });

      const unready = await waitFor(
        async () => {
          const answer = await get('/health/ready');
          return answer.status === 503 ? answer : undefined;
        },
        MAX_LAG_SECONDS * 1000 + 15_000,
        'readiness to fail while replay is paused',
      );
      expect(unready.body).toMatchObject({
        status: 'error',
        error: { replica: { status: 'down', message: expect.stringContaining('behind the primary') } },
        info: { database: { status: 'up' }, index: { status: 'up' } },
      });
      expect(await lagMetric()).toBeGreaterThan(MAX_LAG_SECONDS);
      // Still answering, from the replica's (old) catalogue.
      expect(allCarry(await names(), 'halyard')).toBe(true);
      expect(await total(marker)).toBe(searchedBefore);

      await standby!.pauseReplay(false);
      const ready = await waitFor(
        async () => {
          const answer = await get('/health/ready');
          return answer.status === 200 ? answer : undefined;
        },
        30_000,
        'readiness to recover once replay resumes',
      );
      // Ready once within the bound; caught up (lag 0) a moment later, when replay reaches what arrived.
      expect(ready.body).toMatchObject({ info: { replica: { status: 'up' } } });
      expect(
        (ready.body as { info: { replica: { lag_seconds: number } } }).info.replica.lag_seconds,
      ).toBeLessThanOrEqual(MAX_LAG_SECONDS);
      await waitFor(
        async () => ((await lagMetric()) === 0 ? true : undefined),
        30_000,
        'the replica to catch up',
      );
      expect(allCarry(await names(), marker)).toBe(true);
      expect(await total(marker)).toBe(CATALOGUE_SIZE);
    } catch (error) {
      await standby?.pauseReplay(false).catch(() => undefined);
      await failWithLogs(error);
    }
  }, 120_000);

  it('keeps answering searches from the replica when the primary is stopped; a reindex answers 503 service_unavailable', async () => {
    try {
      await primary!.stop('fast');
      for (let i = 0; i < 20; i++) {
        expect(await total(offers[i].name)).toBeGreaterThan(0);
        expect(allCarry(await names(), 'tamarisk')).toBe(true);
      }
      const filterOnly = await get('/travels?size=5&infoDensity=card');
      expect(filterOnly.status).toBe(200);
      expect((filterOnly.body as { totalRecords: number }).totalRecords).toBe(CATALOGUE_SIZE);
      const ready = await get('/health/ready');
      expect({ status: ready.status, body: ready.body }).toMatchObject({
        status: 200,
        body: { info: { database: { status: 'up' }, replica: { status: 'up', lag_seconds: 0 } } },
      });

      const refused = await get('/reindex');
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 503,
        body: { message: expect.any(String), error: 'service_unavailable' },
      });
      expect(refused.headers.get('retry-after')).toBe('5');
      // Searches still answer after the refused reindex.
      expect(await total(offers[0].name)).toBeGreaterThan(0);
    } catch (error) {
      await failWithLogs(error);
    }
  }, 60_000);
});

/**
 * DATABASE_READ_URL naming a database that is not a standby (here: a second, migrated and empty
 * database of one throwaway cluster): the listings read from it and the reindex writes to the
 * primary, which shows which database each side uses; its lag reads 0 and both pools have their
 * gauges. Here rather than in apps/search/test (an e2e test there would need a PostgreSQL server,
 * which the embedded database of `pnpm test` is not).
 */
describe('search with a read database that is not a standby', () => {
  const READER = 'search_reader';

  beforeAll(async () => {
    primary = await ThrowawayCluster.create();
    await Promise.all([primary.createDatabase(DATABASE), primary.createDatabase(READER)]);
    const migrate = new NodeProcess({
      name: 'migrate the read database',
      script: BUILT.searchMigrate,
      withoutEnv: SEARCH_RUNNER_ENV,
      env: { APP_ENV: 'local', LOG_LEVEL: 'warn', DATABASE_URL: primary.url(READER) },
    });
    const exit = await migrate.exited;
    if (exit.code !== 0) throw new Error(`the read database's migration failed:\n${migrate.tail(8000)}`);
    service = await ServiceProcess.start({
      name: 'search',
      script: BUILT.searchMain,
      withoutEnv: SEARCH_RUNNER_ENV,
      keepOutput: 1_000_000,
      env: {
        APP_ENV: 'local',
        LOG_LEVEL: 'warn',
        DATABASE_URL: primary.url(DATABASE),
        DATABASE_READ_URL: primary.url(READER),
        DB_MIGRATE_ON_START: 'true',
        DB_POOL_SIZE: '4',
        SHUTDOWN_GRACE_MS: '2000',
        CATALOGUE_SOURCE: 'generated:2',
        EMBEDDING_PROVIDER: 'builtin',
      },
    });
    await service.ready(90_000, 100);
  }, 180_000);

  afterAll(async () => {
    await NodeProcess.stopAll(15_000);
    await primary?.destroy();
  }, 60_000);

  it('lists from the read database while the reindex writes to the primary', async () => {
    expect(await reindex()).toMatchObject({ status: 'succeeded' });
    const [{ total: onPrimary }] = await primary!.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM travel_offers',
      [],
      DATABASE,
    );
    expect(onPrimary).toBe(2);
    const listing = await get('/travels');
    expect({ status: listing.status, body: listing.body }).toMatchObject({
      status: 200,
      body: { totalRecords: 0, records: [] },
    });
  }, 90_000);

  it('reports the read database ready with no lag, and the gauges of both pools', async () => {
    const ready = await get('/health/ready');
    expect({ status: ready.status, body: ready.body }).toMatchObject({
      status: 200,
      body: { info: { database: { status: 'up' }, replica: { status: 'up', lag_seconds: 0 } } },
    });
    const metrics = String((await get('/metrics')).body);
    expect(metrics).toMatch(/^database_replica_lag_seconds 0$/m);
    // The primary's pool without a label, the read pool's with pool="read".
    expect(metrics).toMatch(/^db_pool_max_connections 4$/m);
    expect(metrics).toMatch(/^db_pool_max_connections\{pool="read"\} 4$/m);
    expect(metrics).toMatch(/^db_pool_waiting_requests\{pool="read"\} \d+$/m);
  });
});
