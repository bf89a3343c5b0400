import 'reflect-metadata';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { zurichToday } from '@rt/platform';
import { Client } from 'pg';
import { CapacityService } from '../capacity/capacity.service';
import { addDays } from '../common/calendar-date';
import { createBenchDatabase, percentile, startBackendInProcess } from './bench-kit';

/**
 * `pnpm bench:capacity`: the region capacity roll-up on a real PostgreSQL.
 * 1. a fresh database `rt_bench_capacity_<time>` on the server of BENCH_DATABASE_URL, migrated;
 *    loaded in bulk (INSERT … SELECT over generate_series): a region with BENCH_TOURS (300) active
 *    tours × 12 dated steps × 3 plans, each plan its own activity (80% a capacity, 10% unlimited,
 *    10% unknown), closures on 10% of the activities (two ranges each within the next 60 days),
 *    BENCH_TRIPS (20,000) trips on as many used codes, departing over the next 40 days; plus 100
 *    tours of another region and 100 pending ones of this region (noise the queries must skip);
 *    VACUUM (ANALYZE);
 * 2. the backend in this process on port 0, a super-admin token;
 * 3. per round: the one-day roll-up (`?date=`) and the 31-day range (`?from=&to=`) over HTTP
 *    (p50, p95), each beside its database part alone (CapacityService.readInputs: the four
 *    statements the request runs).
 * The database is dropped at the end (kept with BENCH_KEEP_DATABASE=1, to EXPLAIN the statements).
 */
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TOURS = Number(process.env.BENCH_TOURS ?? 300);
const TRIPS = Number(process.env.BENCH_TRIPS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const STEPS = 12;
const PLANS = 3;

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timings(count: number, work: () => Promise<unknown>): Promise<number[]> {
  await work(); // warm-up
  const values: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await work();
    values.push(performance.now() - start);
  }
  return values;
}

/** The load, in bulk: ids are derived from row numbers so the statements can join on them. */
async function load(db: Client, today: string): Promise<string> {
  const region = (
    await db.query(
      `INSERT INTO organizations (name, type, status) VALUES ('Bench region', 'region', 'approved') RETURNING id`,
    )
  ).rows[0].id as string;
  const other = (
    await db.query(
      `INSERT INTO organizations (name, type, status) VALUES ('Other region', 'region', 'approved') RETURNING id`,
    )
  ).rows[0].id as string;
  const partner = (
    await db.query(
      `INSERT INTO organizations (name, type, status) VALUES ('Bench partner', 'reseller', 'approved') RETURNING id`,
    )
  ).rows[0].id as string;
  const provider = (
    await db.query(
      `INSERT INTO providers (name, origin, status) VALUES ('Bench guides', 'catalog', 'published') RETURNING id`,
    )
  ).rows[0].id as string;
  const allTours = TOURS + 200;
  const activities = allTours * STEPS * PLANS;
  // Activities 1..n: every 10th unlimited, every 10th (offset 5) unknown, the rest 5..40.
  await db.query(
    `INSERT INTO activities (id, provider_id, name, capacity, unlimited)
     SELECT md5('activity' || i)::uuid, $1, 'Activity ' || i,
            CASE WHEN i % 10 IN (0, 5) THEN NULL ELSE 5 + (i * 7919) % 36 END, i % 10 = 0
       FROM generate_series(1, $2::int) AS i`,
    [provider, activities],
  );
  // Tours 1..TOURS active in the region, then 100 of another region, then 100 pending here.
  await db.query(
    `INSERT INTO tours (id, name, color, status, partner_organization_id, region_organization_id)
     SELECT md5('tour' || i)::uuid, 'Tour ' || lpad(i::text, 4, '0'), '#1A2B3C',
            CASE WHEN i > $4::int + 100 THEN 'pending' ELSE 'active' END, $1,
            CASE WHEN i > $4::int AND i <= $4::int + 100 THEN $3::uuid ELSE $2::uuid END
       FROM generate_series(1, $4::int + 200) AS i`,
    [partner, region, other, TOURS],
  );
  await db.query(
    `INSERT INTO tour_steps (id, tour_id, position, day_number)
     SELECT md5('step' || i || '-' || k)::uuid, md5('tour' || i)::uuid, k, k
       FROM generate_series(1, $1) AS i, generate_series(1, $2) AS k`,
    [allTours, STEPS],
  );
  await db.query(
    `INSERT INTO tour_step_activities (step_id, priority, activity_id)
     SELECT md5('step' || i || '-' || k)::uuid, p, md5('activity' || (((i - 1) * $2::int + (k - 1)) * $3::int + p))::uuid
       FROM generate_series(1, $1) AS i, generate_series(1, $2) AS k, generate_series(1, $3) AS p`,
    [allTours, STEPS, PLANS],
  );
  // 10% of the activities closed, two ranges each (1 to 3 days) within the next 60 days.
  await db.query(
    `INSERT INTO activity_closures (activity_id, starts_on, ends_on)
     SELECT md5('activity' || i)::uuid, $2::date + s, $2::date + s + (i % 3)
       FROM generate_series(7, $1, 10) AS i,
            LATERAL (VALUES ((i * 31) % 50), ((i * 17) % 50 + 5)) AS r(s)`,
    [activities, today],
  );
  // The trips: one used code each, claimed by the bench user (its window on the code too).
  const user = (await db.query(`SELECT id FROM users LIMIT 1`)).rows[0].id as string;
  const batch = (
    await db.query(
      `INSERT INTO activation_code_batches (organization_id, batch_number) VALUES ($1, 1) RETURNING id`,
      [partner],
    )
  ).rows[0].id as string;
  await db.query(
    `INSERT INTO activation_codes (id, full_code, organization_id, batch_id, purchased_at, used_at,
                                   claimed_by_user_id, trip_starts_on, trip_ends_on)
     SELECT md5('code' || i)::uuid, 'B' || lpad(i::text, 13, '0'), $1, $2, now(), now(), $3,
            $5::date + (i % 40), $5::date + (i % 40) + $6::int - 1
       FROM generate_series(1, $4) AS i`,
    [partner, batch, user, TRIPS, today, STEPS],
  );
  await db.query(
    `INSERT INTO trips (activation_code_id, user_id, tour_id, starts_on, ends_on, travellers)
     SELECT md5('code' || i)::uuid, $1, md5('tour' || (1 + (i * 7) % $3::int))::uuid,
            $4::date + (i % 40), $4::date + (i % 40) + $5::int - 1, 1 + i % 4
       FROM generate_series(1, $2) AS i`,
    [user, TRIPS, TOURS, today, STEPS],
  );
  await db.query('VACUUM (ANALYZE)');
  return region;
}

async function main(): Promise<void> {
  const database = await createBenchDatabase(SERVER_URL, `rt_bench_capacity_${Date.now().toString(36)}`);
  let app: NestExpressApplication | undefined;
  const db = new Client({ connectionString: database.url });
  try {
    const backend = await startBackendInProcess(database.url);
    app = backend.app;
    const { base, token } = backend;
    const capacity = app.get(CapacityService);

    await db.connect();
    const today = zurichToday();
    const loadStart = performance.now();
    const region = await load(db, today);
    const counts = (
      await db.query(`SELECT (SELECT count(*) FROM tours) AS tours, (SELECT count(*) FROM tour_steps) AS steps,
                             (SELECT count(*) FROM tour_step_activities) AS plans,
                             (SELECT count(*) FROM activity_closures) AS closures,
                             (SELECT count(DISTINCT activity_id) FROM activity_closures) AS closed_activities,
                             (SELECT count(*) FROM activities) AS activities, (SELECT count(*) FROM trips) AS trips`)
    ).rows[0] as Record<string, string>;
    console.log(
      `capacity bench: ${cpus().length} CPUs (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}, ` +
        `PostgreSQL ${(await db.query('SHOW server_version')).rows[0].server_version}`,
    );
    console.log(
      `load: ${TOURS} active tours in the region (+100 elsewhere, +100 pending) × ${STEPS} dated steps × ${PLANS} plans; ` +
        `${counts.tours} tours, ${counts.steps} steps, ${counts.plans} plans, ${counts.activities} activities, ` +
        `${counts.closures} closures on ${counts.closed_activities} activities, ${counts.trips} trips ` +
        `(${ms(performance.now() - loadStart)})\n`,
    );

    const get = async (query: string) => {
      const res = await fetch(`${base}/api/organizations/${region}/capacity?${query}`, {
        headers: { Authorization: `Bearer ${token}`, 'X-Viewing-As': 'super-admin' },
      });
      if (res.status !== 200) throw new Error(`capacity answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { capacity: unknown; tours?: unknown[]; days?: unknown[] };
    };
    const day = addDays(today, 5);
    const to = addDays(today, 30);
    const oneDay = await get(`date=${day}`);
    const range = await get(`from=${today}&to=${to}`);
    console.log(
      `answers: ${day}: ${oneDay.tours?.length} tours, region capacity ${JSON.stringify(oneDay.capacity)}; ` +
        `range: ${range.days?.length} days\n`,
    );

    for (let round = 1; round <= ROUNDS; round++) {
      const httpDay = await timings(REQUESTS, () => get(`date=${day}`));
      const sqlDay = await timings(REQUESTS, () => capacity.readInputs(region, day, day));
      const httpRange = await timings(REQUESTS, () => get(`from=${today}&to=${to}`));
      const sqlRange = await timings(REQUESTS, () => capacity.readInputs(region, today, to));
      console.log(`round ${round} (${REQUESTS} sequential requests each):`);
      console.log(
        `  one day  over HTTP p50 ${ms(percentile(httpDay, 50))}, p95 ${ms(percentile(httpDay, 95))}; ` +
          `its database part alone (4 statements) p50 ${ms(percentile(sqlDay, 50))}, p95 ${ms(percentile(sqlDay, 95))}`,
      );
      console.log(
        `  31 days  over HTTP p50 ${ms(percentile(httpRange, 50))}, p95 ${ms(percentile(httpRange, 95))}; ` +
          `its database part alone (4 statements) p50 ${ms(percentile(sqlRange, 50))}, p95 ${ms(percentile(sqlRange, 95))}`,
      );
    }
  } finally {
    await app?.close();
    await db.end().catch(() => undefined);
    if (process.env.BENCH_KEEP_DATABASE === '1') console.log(`kept database ${database.name}`);
    else await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
