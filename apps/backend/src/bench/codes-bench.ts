import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, get, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { NestFactory } from '@nestjs/core';
import { migrateDatabase, type Sql, urlOfDatabase, withClient } from '@rt/database';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { CodeFilter, exportSql, listingSql } from '../activation-codes/activation-code-listing.sql';
import { CODE_ALPHABET } from '../activation-codes/activation-code-generator';
import type { CodeStatus } from '../activation-codes/activation-code-status';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { AppModule } from '../app.module';
import { loadBackendConfig } from '../config';
import { backendMigrations } from '../database/migrations';
import { UsersService } from '../users/users.service';
import { freePort, startBuiltBackend } from './bench-kit';

/**
 * `pnpm bench:codes`: the activation codes on a real PostgreSQL.
 * 1. a fresh database `codes_bench` on BENCH_DATABASE_URL (or DATABASE_URL), migrated, loaded in
 *    bulk SQL with BENCH_CODES (1,000,000) codes over 50 organizations and 2,000 batches with a
 *    realistic mix of statuses, then VACUUM ANALYZE;
 * 2. the built backend (dist/main.js) in a child process, whose RSS is sampled from /proc;
 * 3. over HTTP with autocannon (one connection, a fixed number of requests), each beside the same
 *    SQL run directly (the statements come from activation-code-listing.sql.ts, as the repository
 *    builds them): an organization's filtered page with its exact total, `search=` over all codes;
 *    the export of every code beside `COPY (same query) TO STDOUT WITH CSV`, with the app's peak
 *    RSS growth; a generation of 100,000 codes; bulk cancels of 1,000 ids.
 */
const env = process.env;
const SERVER_URL =
  env.BENCH_DATABASE_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = env.BENCH_DATABASE ?? 'codes_bench';
const CODES = Number(env.BENCH_CODES ?? 1_000_000);
const ORGANIZATIONS = 50;
const BATCHES_PER_ORGANIZATION = 40;
const REQUESTS = Number(env.BENCH_REQUESTS ?? 300);
const SKIP_LOAD = env.BENCH_SKIP_LOAD === '1';

const databaseUrl = urlOfDatabase(SERVER_URL, DATABASE);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const p50 = (samples: number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
const p95 = (samples: number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    95,
  );
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The child's resident set size, from /proc (Linux). */
const rssOf = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
};

async function recreateDatabase(): Promise<void> {
  await withClient(SERVER_URL, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  });
}

/** 12 symbols of the alphabet from a 60-bit value `z` (5 bits each), written ABCD-EFGH-JKLM. */
const codeOfSql = (z: string) => {
  const symbol = (k: number) => `substr('${CODE_ALPHABET}', ((${z} >> ${5 * k}) & 31)::int + 1, 1)`;
  const group = (from: number) => [0, 1, 2, 3].map((i) => symbol(from + i)).join(' || ');
  return `${group(0)} || '-' || ${group(4)} || '-' || ${group(8)}`;
};

const MASK_60 = '1152921504606846975';
/** (x × odd) mod 2^60 in numeric (a bigint product would overflow): a bijection of 60-bit values. */
const times = (x: string, odd: string) => `((${x})::numeric * ${odd} % 1152921504606846976)::bigint`;
/**
 * A bijective mix of 60-bit values (multiply by odd constants, xor-shift), so that every symbol of
 * the code depends on every bit of the row number: codes look uniformly random, as the app's
 * generator draws them. (Without it, bits 24–39 stayed zero for the first million codes, a "22"
 * sat in one code of sixteen, and `search=422-` matched 65,567 codes.)
 */
const mix60 = (x: string) => {
  const first = `(${times(x, '1106679757733293497')})`;
  const second = `(${times(`${first} # (${first} >> 27)`, '347317335066431979')})`;
  return `(${second} # (${second} >> 31))`;
};

/**
 * The data set, in bulk SQL. Codes are distinct by construction: n ↦ (n × odd) mod 2^60 then a
 * xorshift are bijections of 60-bit values. Status mix per code (a seeded random draw): 45% in
 * stock, 25% purchased, 10% used, 6% cancelled (half of them purchased before), 4% reimbursed,
 * and the expiration of the batch (30% of batches never expire, 10% expired already).
 */
async function load(client: Client): Promise<void> {
  const perBatch = Math.ceil(CODES / (ORGANIZATIONS * BATCHES_PER_ORGANIZATION));
  await client.query(`SELECT setseed(0.42)`);
  await client.query(
    `INSERT INTO organizations (name, type, status)
     SELECT 'Bench organization ' || i, CASE WHEN i % 5 = 0 THEN 'region' ELSE 'reseller' END, 'approved'
       FROM generate_series(1, ${ORGANIZATIONS}) i`,
  );
  await client.query(
    `INSERT INTO activation_code_batches (organization_id, batch_number, internal_note, expires_at, created_at)
     SELECT o.id, n, 'bench',
            CASE WHEN random() < 0.3 THEN NULL
                 WHEN random() < 0.14 THEN now() - interval '30 days'
                 ELSE now() + (n * interval '10 days') END,
            now() - ((${BATCHES_PER_ORGANIZATION} - n) * interval '7 days') - (row_number() OVER () * interval '1 second')
       FROM organizations o CROSS JOIN generate_series(1, ${BATCHES_PER_ORGANIZATION}) n
      WHERE o.name LIKE 'Bench organization %'`,
  );
  await client.query(
    `INSERT INTO activation_code_batch_counters (organization_id, last_batch_number)
     SELECT organization_id, max(batch_number) FROM activation_code_batches GROUP BY organization_id`,
  );
  const started = performance.now();
  await client.query(
    `INSERT INTO activation_codes (full_code, organization_id, batch_id, expires_at, created_at,
                                   purchased_at, used_at, cancelled_at, reimbursed_at)
     SELECT ${codeOfSql('z')}, organization_id, batch_id, expires_at, created_at,
            CASE WHEN r >= 0.45 AND NOT (r >= 0.90 AND r < 0.93) THEN created_at + interval '2 days' END,
            CASE WHEN r >= 0.70 AND r < 0.80 THEN created_at + interval '5 days' END,
            CASE WHEN r >= 0.90 THEN created_at + interval '9 days' END,
            CASE WHEN r >= 0.96 THEN created_at + interval '10 days' END
       FROM (SELECT b.organization_id, b.id AS batch_id, b.expires_at, b.created_at, random() AS r,
                    m.z
               FROM (SELECT b.*, row_number() OVER (ORDER BY b.created_at, b.id) - 1 AS bn
                       FROM activation_code_batches b) b
               CROSS JOIN generate_series(1, ${perBatch}) k
               CROSS JOIN LATERAL (SELECT ((b.bn * ${perBatch} + k) * 1099511627791) & ${MASK_60} AS y) h
               CROSS JOIN LATERAL (SELECT ${mix60('h.y # (h.y >> 31)')} AS z) m
              WHERE b.bn * ${perBatch} + k <= ${CODES}) s`,
  );
  console.log(`  codes inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await client.query('VACUUM (ANALYZE) activation_codes, activation_code_batches, organizations');
}

/** A super-admin and a token, through the app's own services. */
async function superAdminToken(): Promise<string> {
  const config = loadBackendConfig({
    ...env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    APP_ENV: 'local',
    MAIL_WORKER_ENABLED: 'false',
  });
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config, database: { url: databaseUrl, singleSession: false } }),
    { logger: ['error', 'warn'] },
  );
  try {
    const users = app.get(UsersService);
    await users.seedSuperAdmin({ email: 'bench@example.com', password: 'bench password 123' });
    const user = await users.findByEmail('bench@example.com');
    if (!user) throw new Error('no bench super-admin');
    return await app.get(AccessTokensService).issue(user.id, 'codes bench');
  } finally {
    await app.close();
  }
}

/** A filter and its query string, the same request twice. */
interface Case {
  filter: CodeFilter;
  query: string;
}

const queryOf = (filter: CodeFilter, page: number): string => {
  const params = new URLSearchParams();
  for (const status of filter.statuses ?? []) params.append('status[]', status);
  if (filter.organizationIds?.[0]) params.set('organisation_id', filter.organizationIds[0]);
  if (filter.expiresFrom) params.set('expires_from', filter.expiresFrom.toISOString());
  if (filter.expiresTo) params.set('expires_to', filter.expiresTo.toISOString());
  if (filter.search) params.set('search', filter.search);
  params.set('page', String(page));
  return params.toString();
};

async function measureListing(
  label: string,
  cases: Case[],
  port: number,
  token: string,
  direct: Client,
): Promise<{ http: number; httpP95: number; sql: number; sqlP95: number; seq: number; seqP95: number }> {
  const headers = { authorization: `Bearer ${token}`, 'x-viewing-as': 'super-admin' };
  // Check one answer against the direct total first.
  const first = cases[0];
  const answer = await new Promise<string>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: `/api/activation-codes?${first.query}`, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
  const sql0 = listingSql(first.filter, {
    limit: 25,
    offset: Number(new URLSearchParams(first.query).get('page') ?? 1) * 25 - 25,
  });
  const directTotal = (await direct.query(sql0.text, sql0.values)).rows[0]?.total ?? 0;
  const httpTotal = (JSON.parse(answer) as { meta: { total: number } }).meta.total;
  if (httpTotal !== directTotal) throw new Error(`${label}: totals differ (${httpTotal} vs ${directTotal})`);

  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 1,
    amount: REQUESTS,
    headers,
    requests: cases.map((c) => ({ method: 'GET', path: `/api/activation-codes?${c.query}` })),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  // The same requests one by one, timed to the microsecond (autocannon reports whole milliseconds).
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sequential: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const c = cases[i % cases.length];
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      get(
        { host: '127.0.0.1', port, path: `/api/activation-codes?${c.query}`, headers, agent },
        (response) => {
          response.resume();
          response.on('end', () => resolve());
        },
      ).on('error', reject);
    });
    sequential.push(performance.now() - started);
  }
  agent.destroy();
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const c = cases[i % cases.length];
    const page = Number(new URLSearchParams(c.query).get('page') ?? 1);
    const sql: Sql = listingSql(c.filter, { limit: 25, offset: (page - 1) * 25 });
    const started = performance.now();
    await direct.query(sql.text, sql.values);
    samples.push(performance.now() - started);
  }
  return {
    http: result.latency.p50,
    httpP95: result.latency.p97_5,
    sql: p50(samples),
    sqlP95: p95(samples),
    seq: p50(sequential),
    seqP95: p95(sequential),
  };
}

async function timedHttp(
  port: number,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ ms: number; status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          'x-viewing-as': 'super-admin',
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ ms: performance.now() - started, status: response.statusCode ?? 0, text }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Streams the export, counting bytes and lines (nothing kept), while sampling the app's RSS. */
async function measureExport(port: number, token: string, pid: number) {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 25);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  await new Promise<void>((resolve, reject) => {
    get(
      {
        host: '127.0.0.1',
        port,
        path: '/api/activation-codes/export',
        headers: { authorization: `Bearer ${token}`, 'x-viewing-as': 'super-admin' },
      },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        response.on('end', () => resolve());
      },
    ).on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { seconds, bytes, rows: lines - 1, rssBefore: before, rssPeak: peak };
}

/** `COPY (the export's query) TO STDOUT WITH CSV` through psql, output discarded. */
async function measureCopy(): Promise<{ seconds: number; bytes: number }> {
  const sql = exportSql({}, { form: 'columns' });
  const started = performance.now();
  const child = spawn(
    'psql',
    [databaseUrl, '-X', '-q', '-c', `COPY (${sql.text}) TO STDOUT WITH CSV HEADER`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let bytes = 0;
  child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`psql COPY exited with ${code}`);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

async function main(): Promise<void> {
  console.log(`Activation codes benchmark on ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`);
  if (!SKIP_LOAD) await recreateDatabase();
  // A reused database gets the migrations added since it was loaded too.
  await migrateDatabase({ url: databaseUrl, singleSession: false }, 'backend', backendMigrations);
  if (!SKIP_LOAD) {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const started = performance.now();
      await load(client);
      console.log(`  data set loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await client.end();
    }
  }
  const direct = new Client({ connectionString: databaseUrl, application_name: 'codes-bench-direct' });
  await direct.connect();
  const counts = (
    await direct.query<{ codes: string; batches: string; organizations: string }>(
      `SELECT (SELECT count(*) FROM activation_codes) AS codes, (SELECT count(*) FROM activation_code_batches) AS batches,
              (SELECT count(DISTINCT organization_id) FROM activation_codes) AS organizations`,
    )
  ).rows[0];
  console.log(`  ${counts.codes} codes, ${counts.batches} batches, ${counts.organizations} organizations`);
  const organizations = (
    await direct.query<{ id: string }>(
      `SELECT organization_id AS id FROM activation_code_batches GROUP BY organization_id ORDER BY organization_id`,
    )
  ).rows.map((row) => row.id);

  const token = await superAdminToken();
  const port = await freePort();
  const child = await startBuiltBackend(databaseUrl, port);
  const figures: string[] = [];
  try {
    // 1. An organization's filtered page with its exact total.
    const statusSets: CodeStatus[][] = [
      ['purchased'],
      ['in stock'],
      ['expired', 'cancelled'],
      ['used'],
      ['reimbursed'],
    ];
    const orgCases: Case[] = [];
    for (let i = 0; i < 40; i++) {
      const filter: CodeFilter = {
        organizationIds: [organizations[(i * 7) % organizations.length]],
        statuses: i % 4 === 3 ? undefined : statusSets[i % statusSets.length],
        ...(i % 5 === 4
          ? { expiresFrom: new Date(Date.now()), expiresTo: new Date(Date.now() + 200 * 86_400_000) }
          : {}),
      };
      orgCases.push({ filter, query: queryOf(filter, 1 + (i % 4)) });
    }
    const org = await measureListing('organization page', orgCases, port, token, direct);
    figures.push(
      `| organization-scoped filtered page + exact total | ${ms(org.http)} | ${ms(org.httpP95)} | ${ms(org.seq)} | ${ms(org.seqP95)} | ${ms(org.sql)} | ${ms(org.sqlP95)} | ${(org.seq / org.sql).toFixed(2)}× |`,
    );
    console.log(figures.at(-1));

    // 2. search=, 4 to 100 characters, over all codes and within one organization: infixes of
    // random existing codes (some across a dash), whole codes, longer texts no code holds, and
    // characters no code has (`-`, `%`, `0`, `O`, `1`, `I`).
    const samples = (
      await direct.query<{ full_code: string; organization_id: string }>(
        `SELECT full_code, organization_id FROM activation_codes ORDER BY random() LIMIT 60`,
      )
    ).rows;
    const infix = (code: string, i: number, length: number) => {
      const from = (i * 7) % (code.length - length + 1);
      return code.slice(from, from + length);
    };
    const searchGroups: { label: string; searches: (code: string, i: number) => string }[] = [
      { label: '4–5 characters', searches: (code, i) => infix(code, i, 4 + (i % 2)).toLowerCase() },
      { label: '6–14 characters (whole codes included)', searches: (code, i) => infix(code, i, 6 + (i % 9)) },
      {
        label: '15–100 characters (no code matches)',
        searches: (code, i) =>
          `${code}-${code}`
            .repeat(4)
            .slice(0, 15 + ((i * 17) % 86))
            .toLowerCase(),
      },
      {
        label: 'characters no code has',
        searches: (code, i) =>
          ['----', '%%%%', '____', `${code.slice(0, 3)}0`, `o${code.slice(5, 9)}`, `${code.slice(10)}-`][
            i % 6
          ],
      },
    ];
    for (const scoped of [false, true]) {
      for (const group of searchGroups) {
        const cases: Case[] = samples.map((sample, i) => {
          const filter: CodeFilter = {
            search: group.searches(sample.full_code, i),
            organizationIds: scoped ? [sample.organization_id] : undefined,
          };
          return { filter, query: queryOf(filter, 1) };
        });
        const label = `\`search=\` ${group.label}, ${scoped ? 'within one organization' : 'over all codes'}`;
        const search = await measureListing(label, cases, port, token, direct);
        figures.push(
          `| ${label} | ${ms(search.http)} | ${ms(search.httpP95)} | ${ms(search.seq)} | ${ms(search.seqP95)} | ${ms(search.sql)} | ${ms(search.sqlP95)} | ${(search.seq / search.sql).toFixed(2)}× |`,
        );
        console.log(figures.at(-1));
      }
    }

    // 3. The export of every code, beside COPY.
    const copy = await measureCopy();
    const exported = await measureExport(port, token, child.pid!);
    const exportLine = `export of ${exported.rows} rows: ${exported.seconds.toFixed(2)} s (${mb(exported.bytes)} MB, ${Math.round(
      exported.rows / exported.seconds,
    )} rows/s); COPY of the same query: ${copy.seconds.toFixed(2)} s (${mb(copy.bytes)} MB) → ${(
      copy.seconds / exported.seconds
    ).toFixed(
      2,
    )} of COPY's throughput; app RSS ${mb(exported.rssBefore)} → peak ${mb(exported.rssPeak)} MB (+${mb(
      exported.rssPeak - exported.rssBefore,
    )} MB)`;
    console.log(`  ${exportLine}`);

    // 4. A generation of 100,000 codes in one call.
    const generation = await timedHttp(port, token, 'POST', '/api/activation-codes/batches', {
      organisation_id: organizations[0],
      count: 100_000,
      expires_at: '2031-01-01T00:00:00Z',
    });
    if (generation.status !== 201)
      throw new Error(`generation answered ${generation.status}: ${generation.text}`);
    const generationLine = `generation of 100,000 codes in one call: ${(generation.ms / 1000).toFixed(2)} s`;
    console.log(`  ${generationLine}`);

    // 5. Bulk cancels of 1,000 ids (distinct codes each time, most of them cancellable).
    const bulk: number[] = [];
    for (let round = 0; round < 5; round++) {
      const ids = (
        await direct.query<{ id: string }>(
          `SELECT id FROM activation_codes WHERE organization_id = $1 ORDER BY full_code LIMIT 1000`,
          [organizations[1 + round]],
        )
      ).rows.map((row) => row.id);
      const answer = await timedHttp(port, token, 'PUT', '/api/activation-codes/status', {
        ids,
        status: 'cancelled',
      });
      if (answer.status !== 200) throw new Error(`bulk answered ${answer.status}`);
      const parsed = JSON.parse(answer.text) as { updated: unknown[]; skipped: unknown[] };
      bulk.push(answer.ms);
      if (round === 0)
        console.log(`  bulk: ${parsed.updated.length} updated, ${parsed.skipped.length} skipped`);
    }
    const bulkLine = `bulk cancel of 1,000 ids: p50 ${ms(p50(bulk))} ms, max ${ms(Math.max(...bulk))} ms over 5 calls`;
    console.log(`  ${bulkLine}`);

    console.log(
      '\n| ms | autocannon p50 | autocannon p97.5 | HTTP one by one p50 | p95 | SQL directly p50 | p95 | HTTP / SQL (p50) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const line of figures) console.log(line);
    console.log(`\n- ${exportLine}\n- ${generationLine}\n- ${bulkLine}`);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await direct.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
