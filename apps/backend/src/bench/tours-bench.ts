import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { seededRandom } from '@rt/contracts';
import { migrateDatabase, urlOfDatabase, withClient } from '@rt/database';
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, get } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { ActivitiesService } from '../activities/activities.service';
import { AppModule } from '../app.module';
import { loadBackendConfig } from '../config';
import { backendMigrations } from '../database/migrations';
import { OrganizationsDemoSeed } from '../organizations/organizations-demo-seed';
import { OrganizationsService } from '../organizations/organizations.service';
import { haversineMeters } from '../providers/haversine';
import { providerListingSql } from '../providers/proximity.sql';
import { toStoredTime } from '../tours/step-time';
import { TourStepsService } from '../tours/tour-steps.service';
import { ToursService } from '../tours/tours.service';
import { UsersService } from '../users/users.service';
import { freePort, percentile, startBuiltBackend } from './bench-kit';

/**
 * `pnpm bench:tours`: the tours feature on a real PostgreSQL.
 * 1. a fresh database `rt_bench_tours_<random>` on the server of BENCH_DATABASE_URL, migrated;
 *    BENCH_PROVIDERS (100,000) providers spread over Europe (one INSERT … SELECT of a seeded
 *    generator), a tour of 30 steps × 3 plans (through the services), VACUUM (ANALYZE);
 * 2. the built service (`dist/main.js`) in a child process;
 * 3. nearest 25 providers to seeded random points: autocannon over HTTP (one connection, then 4),
 *    and the same statement run directly (providerListingSql, what the service runs); the HTTP
 *    order and distances are checked against the direct SQL and a haversine;
 * 4. `GET /tour/{id}` of the 30 × 3 tour with autocannon.
 * The database is dropped at the end. Bounded: a fixed number of requests per step.
 */
const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PROVIDERS = Number(env.BENCH_PROVIDERS ?? 100_000);
const REQUESTS = Number(env.BENCH_REQUESTS ?? 1000);
const DATABASE = `rt_bench_tours_${randomBytes(4).toString('hex')}`;
const databaseUrl = urlOfDatabase(SERVER_URL, DATABASE);

/** Europe, roughly: latitude 36–70, longitude −10–30. */
const europePoint = (random: () => number) => ({
  latitude: Number((36 + random() * 34).toFixed(5)),
  longitude: Number((-10 + random() * 40).toFixed(5)),
});

const quantile = (values: number[], q: number) => percentile(values, q * 100);
const ms = (value: number) => value.toFixed(2);

function httpGet(agent: Agent, port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    request.on('error', reject);
  });
}

const withServerClient = <T>(url: string, work: (client: Client) => Promise<T>): Promise<T> =>
  withClient({ connectionString: url, application_name: 'tours-bench' }, work);

/** Providers in bulk: one statement, a seeded generator (setseed) so every run builds the same set. */
async function insertProviders(client: Client): Promise<void> {
  await client.query('SELECT setseed(0.42)');
  await client.query(
    `INSERT INTO providers (name, city, country, latitude, longitude, origin, status)
     SELECT 'Provider ' || i, 'City ' || (i % 5000), 'EU',
            round((36 + random() * 34)::numeric, 5)::float8, round((-10 + random() * 40)::numeric, 5)::float8,
            'catalog', 'published'
       FROM generate_series(1, $1) AS i`,
    [PROVIDERS],
  );
}

/** A super-admin token, a partner, 90 activities and the 30 × 3 tour, through the app's services. */
async function prepareThroughServices(): Promise<{ token: string; tourId: string }> {
  const config = loadBackendConfig({
    ...env,
    APP_ENV: 'local',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
  });
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config, database: { url: databaseUrl, singleSession: false } }),
    { logger: false },
  );
  try {
    const email = 'bench-admin@example.com';
    await app.get(UsersService).seedSuperAdmin({ email, password: randomBytes(16).toString('hex') });
    const admin = await app.get(UsersService).findByEmail(email);
    const token = await app.get(AccessTokensService).issue(admin!.id, 'tours bench');
    await app.get(OrganizationsDemoSeed).run();
    const organizations = app.get(OrganizationsService);
    const partnerId = (await organizations.findIdByNameAndType('Alpine Adventures', 'reseller'))!;
    const regionId = await organizations.findIdByNameAndType('Valais Region', 'region');
    const providerRows = await withServerClient(databaseUrl, (client) =>
      client.query<{ id: string }>('SELECT id FROM providers ORDER BY id LIMIT 30'),
    );
    const activities = app.get(ActivitiesService);
    const activityIds: string[] = [];
    for (let i = 0; i < 90; i++) {
      activityIds.push(
        await activities.seed(
          {
            providerId: providerRows.rows[i % 30].id,
            name: `Activity ${i}`,
            imageId: null,
            capacity: i % 7 === 0 ? null : 10 + i,
            unlimited: i % 7 === 0,
          },
          [],
        ),
      );
    }
    const tourId = await app.get(ToursService).seed({
      name: 'Benchmark tour',
      color: '#123456',
      status: 'active',
      partnerOrganizationId: partnerId,
      regionOrganizationId: regionId,
    });
    const steps = app.get(TourStepsService);
    for (let i = 0; i < 30; i++) {
      await steps.seed(
        tourId,
        { dayNumber: i + 1, time: toStoredTime('09:30') },
        activityIds.slice(i * 3, i * 3 + 3),
      );
    }
    return { token, tourId };
  } finally {
    await app.close();
  }
}

interface Cannon {
  p50: number;
  p90: number;
  p99: number;
  rps: number;
  errors: number;
}

/** `amount` GETs of the paths `pathOf(i)` with autocannon, `connections` at a time. */
async function cannon(
  port: number,
  token: string,
  amount: number,
  connections: number,
  pathOf: (i: number) => string,
) {
  let sent = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    amount,
    headers: { authorization: `Bearer ${token}`, 'x-viewing-as': 'super-admin', accept: 'application/json' },
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pathOf(sent++) }) }],
  });
  return {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.non2xx + result.errors,
  } satisfies Cannon;
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(`tours bench: database ${DATABASE} on ${new URL(SERVER_URL).host}, ${PROVIDERS} providers`);
  await withServerClient(SERVER_URL, (client) => client.query(`CREATE DATABASE ${DATABASE}`));
  let server: ChildProcess | undefined;
  try {
    await migrateDatabase({ url: databaseUrl, singleSession: false }, 'backend', backendMigrations);
    let t = performance.now();
    await withServerClient(databaseUrl, insertProviders);
    console.log(`providers inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const { token, tourId } = await prepareThroughServices();
    await withServerClient(databaseUrl, (client) => client.query('VACUUM (ANALYZE)'));
    const version = await withServerClient(databaseUrl, (client) =>
      client.query<{ server_version: string }>('SHOW server_version'),
    );

    const port = await freePort();
    server = await startBuiltBackend(databaseUrl, port);
    const random = seededRandom(7);
    const points = Array.from({ length: REQUESTS }, () => europePoint(random));
    const nearPath = (i: number) => {
      const p = points[i % points.length];
      return `/api/tour/providers?latitude=${p.latitude}&longitude=${p.longitude}&per_page=25`;
    };

    // Correctness: HTTP equals the direct SQL, distances match a haversine of the rows' coordinates.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const headers = { authorization: `Bearer ${token}`, 'x-viewing-as': 'super-admin' };
    let worstError = 0;
    await withServerClient(databaseUrl, async (client) => {
      for (let i = 0; i < 20; i++) {
        const answer = JSON.parse((await httpGet(agent, port, nearPath(i), headers)).body) as {
          data: { id: string; latitude: number; longitude: number; distance_meters: number }[];
        };
        const { text, values } = providerListingSql({
          namePattern: null,
          near: points[i],
          limit: 25,
          offset: 0,
        });
        const direct = (await client.query<{ id: string }>(text, values)).rows.map((row) => row.id);
        if (JSON.stringify(direct) !== JSON.stringify(answer.data.map((p) => p.id))) {
          throw new Error(`HTTP and direct SQL disagree for point ${i}`);
        }
        for (const p of answer.data) {
          const expected = haversineMeters(points[i], p);
          if (expected > 1000)
            worstError = Math.max(worstError, Math.abs(p.distance_meters - expected) / expected);
        }
      }
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ${providerListingSql({ namePattern: null, near: points[0], limit: 25, offset: 0 }).text}`,
        providerListingSql({ namePattern: null, near: points[0], limit: 25, offset: 0 }).values,
      );
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      if (!text.includes('providers_location_idx')) throw new Error(`the KNN index is not used:\n${text}`);
    });
    agent.destroy();
    console.log(
      `check: HTTP = direct SQL on 20 points; worst distance error vs haversine ${(worstError * 100).toFixed(4)}%`,
    );

    // Warm-up, then the measures.
    await cannon(port, token, 200, 1, nearPath);
    const nearHttp = await cannon(port, token, REQUESTS, 1, nearPath);
    const nearHttp4 = await cannon(port, token, REQUESTS * 2, 4, nearPath);
    const directSamples = await withServerClient(databaseUrl, async (client) => {
      const samples: number[] = [];
      for (const [i, point] of points.entries()) {
        const { text, values } = providerListingSql({ namePattern: null, near: point, limit: 25, offset: 0 });
        t = performance.now();
        await client.query(text, values);
        if (i >= 0) samples.push(performance.now() - t);
      }
      return samples;
    });
    const tourPath = () => `/api/tour/${tourId}`;
    await cannon(port, token, 200, 1, tourPath);
    const tourHttp = await cannon(port, token, REQUESTS, 1, tourPath);
    const tourHttp4 = await cannon(port, token, REQUESTS * 2, 4, tourPath);

    const directP50 = quantile(directSamples, 0.5);
    console.log('');
    console.log(`| measure (ms) | p50 | p90 | p99 | req/s | target |`);
    console.log(`|---|---|---|---|---|---|`);
    console.log(
      `| nearest 25 of ${PROVIDERS}, HTTP, 1 connection | ${ms(nearHttp.p50)} | ${ms(nearHttp.p90)} | ${ms(nearHttp.p99)} | ${nearHttp.rps.toFixed(0)} | p50 ≤ 15 and ≤ 1.5× SQL |`,
    );
    console.log(
      `| nearest 25, HTTP, 4 connections | ${ms(nearHttp4.p50)} | ${ms(nearHttp4.p90)} | ${ms(nearHttp4.p99)} | ${nearHttp4.rps.toFixed(0)} | |`,
    );
    console.log(
      `| nearest 25, the same SQL directly | ${ms(directP50)} | ${ms(quantile(directSamples, 0.9))} | ${ms(quantile(directSamples, 0.99))} | | |`,
    );
    console.log(
      `| GET /tour/{id}, 30 steps × 3 plans, 1 connection | ${ms(tourHttp.p50)} | ${ms(tourHttp.p90)} | ${ms(tourHttp.p99)} | ${tourHttp.rps.toFixed(0)} | p50 ≤ 20 |`,
    );
    console.log(
      `| GET /tour/{id}, 4 connections | ${ms(tourHttp4.p50)} | ${ms(tourHttp4.p90)} | ${ms(tourHttp4.p99)} | ${tourHttp4.rps.toFixed(0)} | |`,
    );
    console.log('');
    const errors = nearHttp.errors + nearHttp4.errors + tourHttp.errors + tourHttp4.errors;
    console.log(
      `HTTP / direct SQL p50: ${(nearHttp.p50 / directP50).toFixed(2)}×; non-2xx or errors: ${errors}; ` +
        `PostgreSQL ${version.rows[0].server_version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
        `${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    if (errors > 0) process.exitCode = 1;
  } finally {
    server?.kill('SIGTERM');
    if (server) await new Promise((done) => server!.once('exit', done));
    await withServerClient(SERVER_URL, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
