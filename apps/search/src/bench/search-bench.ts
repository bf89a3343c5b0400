import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { migrateDatabase, sessionOptions, typeOrmOptions, urlOfDatabase, withClient } from '@rt/database';
import type { Sql } from '@rt/database';
import { DEMO_CATEGORY_SLUGS, seededRandom } from '@rt/contracts';
import { spawn, ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get } from 'node:http';
import { createServer, AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { loadSearchConfig } from '../config';
import { searchMigrations } from '../database/migrations';
import { SEARCH_SESSION_SETTINGS } from '../database/session-settings';
import { offerFilterOf, passingOffersOf } from '../indexes/text-index/offer-filters';
import { loadTextIndex } from '../indexes/text-index/text-index.loader';
import type { TextIndex } from '../indexes/text-index/text-index';
import { loadVectorIndex, vectorIndexLoadOptions } from '../indexes/vector-index/vector-index.loader';
import type { VectorIndex } from '../indexes/vector-index/vector-index';
import { VECTOR_INDEX_MODES } from '../indexes/vector-index/vector-index.settings';
import type { VectorIndexMode } from '../indexes/vector-index/vector-index.settings';
import { QueryExpansionService } from '../query/glossary/query-expansion.service';
import { QueryAnalysisService } from '../indexes/text-index/query-analysis.service';
import { textQueryOf } from '../indexes/text-index/query-terms';
import type { RunSql } from '../ranking/listing-page';
import { GENERATION_CHANGED } from '../ranking/listing-row';
import { MemoryListing } from '../ranking/memory-listing';
import { MemorySemanticSide } from '../ranking/memory-semantic-side';
import { StatementSemanticSide } from '../ranking/statement-semantic-side';
import { filteredOffersOf } from '../ranking/memory-semantic-side';
import { ReindexService } from '../indexes/reindex/reindex.service';
import { BuiltinEmbeddingProvider } from '../embedding/builtin-embedding.provider';
import { filterStatementsOf, searchRequestOf, searchSessionSql } from '../cli/query-statements';
import { rankingTuningOf } from '../http/travels/travels-request';
import { countedTotal } from '../http/travels/travels.service';
import { HOSTILE_SEARCHES } from './hostile-searches';
import { TYPED_SEARCHES } from './typed-searches';
import { benchOffers, measureLanceDbPeer } from './lancedb-peer';
import { latencyStats } from './latency-stats';
import type { PeerVectors } from './lancedb-peer';

/**
 * `pnpm bench:search`: the search service on a real PostgreSQL with a generated catalogue.
 * 1. full reindex of BENCH_OFFERS (100,000) generated offers with the built-in provider, then a
 *    second one with nothing changed;
 * 2. the text index and the vectors loaded in this process as a replica loads them (their load
 *    time, typed arrays, heap and resident growth): the "in process" rows run the service's own
 *    search path here (MemoryListing: text side in memory, semantic side from the vectors in
 *    memory; BENCH_VECTOR_INDEX=database: the semantic statement, as the spawned service then
 *    does too: SEARCH_VECTOR_INDEX);
 * 3. filter-only listings with their exact total: p50/p95/p99 over HTTP (the built service in a
 *    child process) beside the same SQL run directly, and the page alone; throughput with 4 and
 *    16 clients, HTTP and direct SQL;
 * 4. hybrid searches, plain and with selective filters: p50/p95/p99 over HTTP beside the
 *    same search run in process, top-8 overlap with the exact ranking (the semantic statement with
 *    index scans off: exact distances), short pages;
 * 5. the typed searches (typed-searches.ts) one at a time over HTTP and in process, the text side
 *    alone, the semantic side's nearest offers alone (BENCH_VECTOR_INDEX=memory), the hostile
 *    searches (D-72); then the service process's resident memory (VmRSS, VmHWM) and its own
 *    search_text_index_bytes / search_vector_index_bytes (GET /metrics);
 * 6. the peer (BENCH_PEER=0 skips it): LanceDB in process over the same offers and the same stored
 *    vectors, as a hybrid engine (HNSW + full text + RRF) and by its full-text index alone
 *    (lancedb-peer.ts), and the ratio of our typed mix to the hybrid peer;
 * 7. throughput of the typed searches (4 clients) and of the hybrid mix (4 and 16 clients), HTTP
 *    and in process.
 * Bounded: a fixed number of requests and a fixed duration per throughput step.
 */
const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = env.BENCH_DATABASE ?? 'search_bench';
const OFFERS = Number(env.BENCH_OFFERS ?? 100_000);
const QUERIES = Number(env.BENCH_QUERIES ?? 400);
const THROUGHPUT_SECONDS = Number(env.BENCH_THROUGHPUT_SECONDS ?? 10);
const SKIP_REINDEX = env.BENCH_SKIP_REINDEX === '1';
const HYBRID_QUERIES = Number(env.BENCH_HYBRID_QUERIES ?? 300);
/** BENCH_ONLY_HYBRID=1 skips the filter-only steps (when iterating on the search branch). */
const ONLY_HYBRID = env.BENCH_ONLY_HYBRID === '1';
/** How many times the typed searches are sent one at a time. */
const TYPED_ROUNDS = Number(env.BENCH_TYPED_ROUNDS ?? 3);
/**
 * BENCH_SKIP_OVERLAP=1 skips the hybrid steps' top-8 overlap with exact distances: at 1,000,000
 * offers each exact ranking is a sequential scan of every vector, and those scans evict the
 * indexes the timed steps read from the cache.
 */
const SKIP_OVERLAP = env.BENCH_SKIP_OVERLAP === '1';

/**
 * Where the semantic side is answered, in this process and in the spawned service alike
 * (SEARCH_VECTOR_INDEX): `memory` (the default, as the service's) or `database` (the statement).
 */
const VECTOR_MODE = (env.BENCH_VECTOR_INDEX ?? 'memory') as VectorIndexMode;
if (!VECTOR_INDEX_MODES.includes(VECTOR_MODE))
  throw new Error(`BENCH_VECTOR_INDEX must be one of ${VECTOR_INDEX_MODES.join(', ')}`);
/** The peer's HNSW candidate list at search time: the service's pgvector ef_search by default (100). */
const PEER_EF = Number(env.BENCH_PEER_EF ?? 100);

const databaseUrl = urlOfDatabase(SERVER_URL, DATABASE);

/** The configuration the service reads from the same environment (its SEARCH_* knobs). */
const config = loadSearchConfig({ APP_ENV: 'local', ...env });
const builtin = new BuiltinEmbeddingProvider(config.EMBEDDING_DIMENSION);
/** The direct connections' sessions are the service's (JIT off: database/session-settings.ts). */
const SESSION = sessionOptions(SEARCH_SESSION_SETTINGS);

/**
 * The text index, loaded here as a replica loads it: every search is analysed against it
 * (QueryAnalysisService), and the "direct" measurements run the service's own search path in this
 * process: analysed, scored in memory, the semantic side from the vectors loaded beside it
 * (BENCH_VECTOR_INDEX=memory) or its statement, the page's records read from PostgreSQL
 * (MemoryListing).
 */
let benchIndex:
  | {
      index: TextIndex;
      analysis: QueryAnalysisService;
      dataSource: DataSource;
      /** The vectors of the text index's generation (BENCH_VECTOR_INDEX=memory). */
      vectors?: VectorIndex;
      /** The stored vectors by ordinal, for the peer (read once). */
      stored?: PeerVectors;
    }
  | undefined;
const DIRECT =
  VECTOR_MODE === 'memory'
    ? 'in process (text and vectors in memory)'
    : 'in process (memory text side, semantic statement)';
const mib = (bytes: number) => (bytes / 1048576).toFixed(1);

function loadedIndex() {
  if (!benchIndex) throw new Error('the text index is not loaded');
  return benchIndex;
}

/** Loads the text index as a replica does, and reports its size, load time and the heap it took. */
async function loadBenchIndex(): Promise<NonNullable<typeof benchIndex>> {
  const dataSource = new DataSource(
    typeOrmOptions({
      url: databaseUrl,
      singleSession: false,
      poolSize: 1,
      entities: [],
      migrations: [],
      applicationName: 'search-bench-index',
      sessionSettings: SEARCH_SESSION_SETTINGS,
    }),
  );
  await dataSource.initialize();
  global.gc?.();
  const before = process.memoryUsage();
  const { index, milliseconds } = await loadTextIndex(dataSource);
  global.gc?.();
  const after = process.memoryUsage();
  console.log(
    `text index in memory: ${index.offers} offers, ${index.postings.size} terms, ${index.postingCount} postings; ` +
      `loaded in ${(milliseconds / 1000).toFixed(2)} s; typed arrays ${mib(index.bytes)} MiB; ` +
      `heap + array buffers +${mib(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers)} MiB, ` +
      `resident +${mib(after.rss - before.rss)} MiB${global.gc ? '' : ' (run node with --expose-gc for settled figures)'}`,
  );
  const expansions = new QueryExpansionService(config);
  // Hunspell for the real-word checks, as the service's start compiles it (D-82)
  await expansions.loadRealWords();
  const loaded = {
    index,
    analysis: new QueryAnalysisService(dataSource, expansions),
    dataSource,
    ...(VECTOR_MODE === 'memory' ? await loadBenchVectors(dataSource, index) : {}),
  };
  return loaded;
}

/**
 * Loads the vectors as a replica does (vector-index.loader.ts, with the service's options: exact
 * int8 scoring below approximateFromOffers, an approximate index past it; the built-in
 * provider's sparse layout), keeps them only when they are of the text index's generation and
 * offers (as VectorIndexService does), and reports their load time and memory.
 */
async function loadBenchVectors(dataSource: DataSource, text: TextIndex): Promise<{ vectors: VectorIndex }> {
  global.gc?.();
  const before = process.memoryUsage();
  const { index, ids, readMilliseconds, approximateMilliseconds, sparseMilliseconds } = await loadVectorIndex(
    dataSource,
    vectorIndexLoadOptions('builtin'),
  );
  global.gc?.();
  const after = process.memoryUsage();
  if (index.generation !== text.generation)
    throw new Error(`vectors of generation ${index.generation}, text index of ${text.generation}`);
  if (ids.length !== text.ids.length || ids.some((id, i) => id !== text.ids[i]))
    throw new Error(`the vectors of generation ${index.generation} are not of the text index's offers`);
  console.log(
    `vectors in memory: ${index.offers} × ${index.dimension} dimensions; read in ${(readMilliseconds / 1000).toFixed(2)} s` +
      (index.approximate
        ? `, approximate index built in ${(approximateMilliseconds / 1000).toFixed(2)} s`
        : ', exact scoring (no approximate index)') +
      (index.sparse ? `, laid out for sparse queries in ${(sparseMilliseconds / 1000).toFixed(2)} s` : '') +
      `; typed arrays ${mib(index.bytes)} MiB (int8 ${mib(index.quantized.bytes)}, sparse layout ${mib(index.sparse?.byteLength ?? 0)}, half precision ${mib(index.rescoring.bytes)}); ` +
      `heap + array buffers +${mib(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers)} MiB, ` +
      `resident +${mib(after.rss - before.rss)} MiB`,
  );
  return { vectors: index };
}

/** The stored vectors for the peer (32-bit floats, as pgvector stores them: the replica holds half precision), read once. */
async function storedVectors(): Promise<PeerVectors> {
  const loaded = loadedIndex();
  if (!loaded.stored) {
    const { index, ids, stored } = await loadVectorIndex(loaded.dataSource, {
      ...vectorIndexLoadOptions('builtin'),
      approximateFromOffers: Infinity,
      sparseLayout: false,
      keepStored: true,
    });
    loaded.stored = { ids, dimension: index.dimension, values: stored! };
  }
  return loaded.stored;
}

/** A search's request and query embedding, prepared before it is timed (the service caches embeddings). */
const preparedSearches = new Map<
  Record<string, string>,
  { request: ReturnType<typeof searchRequestOf>; embedding: Float32Array }
>();
async function preparedSearch(query: Record<string, string>) {
  let prepared = preparedSearches.get(query);
  if (!prepared) {
    prepared = {
      request: searchRequestOf(query, config),
      embedding: await builtin.embedQuery(query.search),
    };
    preparedSearches.set(query, prepared);
  }
  return prepared;
}

/**
 * One search run directly: the service's in-process path (its text side in memory, its semantic
 * side from the vectors in memory with BENCH_VECTOR_INDEX=memory, else the statement on a session
 * carrying the pgvector settings, as the service's). `exact` runs the semantic statement with
 * index scans off (exact distances, no HNSW), whatever the mode: the reference ranking. Answers
 * the total and the page's ids.
 */
async function runSearchDirect(
  client: Queryable,
  query: Record<string, string>,
  exact = false,
): Promise<{ total: number; ids: string[] }> {
  const session = searchSessionSql(query, config);
  if (!tunedClients.has(client) && session) {
    await client.query(session.text, session.values);
    tunedClients.add(client);
  }
  const { request, embedding } = await preparedSearch(query);
  const { index, analysis, vectors } = loadedIndex();
  // The exact reference is the semantic statement with index scans off: no vectors for it.
  const run: RunSql = async (sql) =>
    (await client.query(sql.text, sql.values)).rows as Record<string, unknown>[];
  const reading = analysis.read(request.search);
  const search = async () => {
    const query = await analysis.analyse(reading, request, index);
    const semantic =
      vectors && !exact
        ? new MemorySemanticSide(request, query, index, vectors, embedding)
        : new StatementSemanticSide(request, query, index, run, embedding);
    return new MemoryListing(index, run).hybrid(request, query, semantic);
  };
  let result: Awaited<ReturnType<typeof search>>;
  if (exact) {
    await client.query('BEGIN');
    try {
      await client.query("SELECT set_config('enable_indexscan', 'off', true)");
      result = await search();
    } finally {
      await client.query('COMMIT');
    }
  } else {
    result = await search();
  }
  if (result === GENERATION_CHANGED) throw new Error('the index changed generation during the benchmark');
  return { total: result.total, ids: result.rows.map((row) => row.id) };
}

const DESTINATIONS = ['FR', 'CH', 'DE', 'IT', 'ES', 'PT', 'GR', 'JP', 'US', 'IS', 'SC', 'MA'];
// The filter mixes' categories: the demo catalogue's but its four broadest themes.
const CATEGORIES = DEMO_CATEGORY_SLUGS.filter(
  (slug) => !['city-break', 'road-trip', 'adventure', 'wildlife'].includes(slug),
);
const DENSITIES = ['card', 'card', 'search', 'min', 'full'] as const;

/** A deterministic mix of realistic filter-only queries (query-string form). */
function queryMix(count: number): Record<string, string>[] {
  const random = seededRandom(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const month = () => {
    const start = new Date(Date.UTC(2026, 10 + Math.floor(random() * 12), 1));
    const end = new Date(
      Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1 + Math.floor(random() * 2), 0),
    );
    return `${start.toISOString().slice(0, 10)}_${end.toISOString().slice(0, 10)}`;
  };
  const shapes: (() => Record<string, string>)[] = [
    () => ({ page: String(1 + Math.floor(random() * 50)) }),
    () => ({ destination: pick(DESTINATIONS) }),
    () => ({ category: `${pick(CATEGORIES)},${pick(CATEGORIES)}` }),
    () => ({ dates: month() }),
    () => ({ dates: `${month()},${month()}`, hide_invalid: 'true' }),
    () => ({ hide_invalid: 'true', discountclub: 'true' }),
    () => ({ seaside: 'true', orderBy: 'rating', orderDirection: 'desc' }),
    () => ({ orderBy: pick(['rating', 'departure', 'duration']), orderDirection: pick(['asc', 'desc']) }),
    () => ({
      destination: pick(DESTINATIONS),
      category: pick(CATEGORIES),
      dates: month(),
      hide_invalid: 'true',
    }),
    () => ({ category: pick(CATEGORIES), orderBy: 'departure', page: String(1 + Math.floor(random() * 5)) }),
  ];
  return Array.from({ length: count }, () => ({
    ...pick(shapes)(),
    infoDensity: pick(DENSITIES),
    size: '8',
  }));
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

function httpGet(agent: Agent, port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

async function recreateDatabase(): Promise<void> {
  await withClient(SERVER_URL, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  });
  await migrateDatabase({ url: databaseUrl, singleSession: false }, 'search', searchMigrations);
}

async function reindexTwice(): Promise<{ full: number; unchanged: number }> {
  const config = {
    ...loadSearchConfig({
      DATABASE_URL: databaseUrl,
      CATALOGUE_SOURCE: `generated:${OFFERS}`,
      REINDEX_MAINTENANCE_WORK_MEM: env.REINDEX_MAINTENANCE_WORK_MEM,
      LOG_LEVEL: 'warn',
      APP_ENV: 'local',
    }),
    reindexOnStart: false,
  };
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({
      config,
      database: { url: databaseUrl, singleSession: false },
      servesSearches: false,
    }),
    {
      logger: ['error', 'warn'],
    },
  );
  try {
    const reindex = app.get(ReindexService);
    const timed = async (label: string) => {
      const started = performance.now();
      const outcome = await reindex.run('cli');
      const seconds = (performance.now() - started) / 1000;
      if (outcome.status !== 'succeeded') throw new Error(`${label} reindex: ${JSON.stringify(outcome)}`);
      console.log(
        `  ${label}: ${seconds.toFixed(1)} s (${JSON.stringify({ ...outcome, durationMs: undefined })})`,
      );
      return seconds;
    };
    const full = await timed('full');
    const unchanged = await timed('unchanged');
    return { full, unchanged };
  } finally {
    await app.close();
  }
}

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'main.js')], {
    env: {
      ...env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      CATALOGUE_SOURCE: 'none',
      DB_MIGRATE_ON_START: 'false',
      SEARCH_VECTOR_INDEX: VECTOR_MODE,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = new Agent({ keepAlive: true });
  // Ready once its text index and vectors are loaded: about 5 s at 100,000 offers; at 1,000,000
  // a minute, and with the vectors the graph too, built beside the bench's own on the same cores
  // (more than 10 minutes on 2 shared cores).
  const deadline = performance.now() + 1_800_000;
  while (performance.now() < deadline) {
    try {
      if ((await httpGet(agent, port, '/health/ready')).status === 200) {
        agent.destroy();
        return child;
      }
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGTERM');
  throw new Error('the service did not become ready');
}

/** One HTTP socket to the service and one direct session with its settings: each side's time alone. */
async function oneRequestAtATime(): Promise<{ agent: Agent; client: Client; close(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const client = new Client({
    connectionString: databaseUrl,
    application_name: 'search-bench-direct',
    options: SESSION,
  });
  await client.connect();
  const close = async () => {
    agent.destroy();
    await client.end();
  };
  return { agent, client, close };
}

async function latency(port: number, queries: Record<string, string>[]) {
  const { agent, client, close } = await oneRequestAtATime();
  const samples = { http: [] as number[], sql: [] as number[], page: [] as number[] };
  try {
    for (const [i, query] of queries.entries()) {
      const path = `/travels?${new URLSearchParams(query).toString()}`;
      // The statement the service runs for the query, and the page alone (filter-only queries).
      const statements = filterStatementsOf(query, config);
      const withTotal = statements.listing;
      const pageOnly = statements.page;
      let started = performance.now();
      const answer = await httpGet(agent, port, path);
      const http = performance.now() - started;
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.body}`);
      started = performance.now();
      const direct = await client.query(withTotal.text, withTotal.values);
      const sql = performance.now() - started;
      started = performance.now();
      await client.query(pageOnly.text, pageOnly.values);
      const page = performance.now() - started;
      if (i === 0) continue; // warm-up of the connection
      const total = JSON.parse(answer.body).totalRecords as number;
      if (total !== servedTotal(direct.rows[0]?.total ?? 0)) throw new Error(`totals differ for ${path}`);
      samples.http.push(http);
      samples.sql.push(sql);
      samples.page.push(page);
    }
  } finally {
    await close();
  }
  return {
    http: latencyStats(samples.http),
    sql: latencyStats(samples.sql),
    page: latencyStats(samples.page),
  };
}

/**
 * One table row per client count (4, 16): the same queries over HTTP (keep-alive) and run directly
 * by `runSql` on a pool of as many connections as clients.
 */
async function printThroughput(
  port: number,
  queries: Record<string, string>[],
  runSql: (pool: Pool, query: Record<string, string>) => Promise<void>,
  clientCounts = [4, 16],
): Promise<void> {
  for (const clients of clientCounts) {
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    const http = await throughput(
      clients,
      async (query) => {
        const answer = await httpGet(agent, port, `/travels?${new URLSearchParams(query).toString()}`);
        if (answer.status !== 200) throw new Error(`status ${answer.status}`);
      },
      queries,
    );
    agent.destroy();
    const pool = new Pool({ connectionString: databaseUrl, max: clients, options: SESSION });
    const sql = await throughput(clients, (query) => runSql(pool, query), queries);
    await pool.end();
    console.log(
      `| ${clients} | ${http.rps.toFixed(0)} | ${ms(http.p95)} | ${sql.rps.toFixed(0)} | ${ms(sql.p95)} |`,
    );
  }
}

async function throughput(
  clients: number,
  work: (query: Record<string, string>) => Promise<void>,
  queries: Record<string, string>[],
) {
  const deadline = performance.now() + THROUGHPUT_SECONDS * 1000;
  const durations: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const query = queries[next++ % queries.length];
        const started = performance.now();
        await work(query);
        durations.push(performance.now() - started);
      }
    }),
  );
  return { rps: durations.length / THROUGHPUT_SECONDS, ...latencyStats(durations) };
}

const SEARCH_WORDS = [
  'Zermatt',
  'ski Zermatt',
  'Paris',
  'beach Naxos',
  'Wandern',
  'randonnée',
  'wellness Salzburg',
  'Lisboa',
  'Reykjavik',
  'Zurich',
  'Barcleona',
  'Santorni',
  'cooking class',
  'Kultur Praha',
  'road trip',
  'safari Kenya',
  'croisière',
  'family holidays',
  'Lofoten',
  'Dubrovnik',
  'train journey',
  'cycling Amsterdam',
  'Schwarzwald',
  'Semaine de ski',
  'Strand',
  'city break',
  'Sylt',
  'Hvar',
  'Porto',
  'Tirol',
];

/** A deterministic mix of hybrid searches; `filtered` adds filters, selective ones included. */
function searchMix(count: number, filtered: boolean): Record<string, string>[] {
  const random = seededRandom(filtered ? 7 : 5);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const filters: (() => Record<string, string>)[] = [
    () => ({ destination: pick(DESTINATIONS) }),
    () => ({ category: pick(CATEGORIES) }),
    () => ({ hide_invalid: 'true', discountclub: 'true' }),
    () => ({ destination: pick(DESTINATIONS), category: pick(CATEGORIES), hide_invalid: 'true' }),
    () => ({ seaside: 'true', dates: '2027-03-01_2027-03-31' }),
  ];
  return Array.from({ length: count }, () => ({
    search: pick(SEARCH_WORDS),
    ...(filtered ? pick(filters)() : {}),
    infoDensity: pick(DENSITIES),
    size: '8',
  }));
}

/**
 * The service process's resident memory (/proc/<pid>/status: VmRSS now, VmHWM its peak) and its
 * own figures of the structures it serves from (GET /metrics), after the typed mix.
 */
async function printServiceMemory(child: ChildProcess, port: number): Promise<void> {
  const kib = (status: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  let resident = 'unknown (no /proc)';
  try {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    resident = `VmRSS ${mib(kib(status, 'VmRSS') * 1024)} MiB, VmHWM ${mib(kib(status, 'VmHWM') * 1024)} MiB`;
  } catch {
    // not Linux
  }
  let served = '';
  try {
    const agent = new Agent({ keepAlive: false });
    const answer = await httpGet(agent, port, '/metrics');
    agent.destroy();
    const gauge = (name: string) => {
      const value = new RegExp(`^${name} (\\S+)$`, 'm').exec(answer.body)?.[1];
      return value === undefined ? 'absent' : `${mib(Number(value))} MiB`;
    };
    if (answer.status === 200)
      served = `; its search_text_index_bytes ${gauge('search_text_index_bytes')}, search_vector_index_bytes ${gauge('search_vector_index_bytes')}`;
  } catch {
    // no metrics endpoint
  }
  console.log(
    `service process after the typed mix (SEARCH_VECTOR_INDEX=${VECTOR_MODE}, ${loadedIndex().index.offers} offers): ${resident}${served}`,
  );
}

interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** Connections whose session carries the service's pgvector settings. */
const tunedClients = new WeakSet<Queryable>();

/** The `totalRecords` the service answers for a count run directly (SEARCH_TOTAL_EXACT_LIMIT). */
function servedTotal(counted: number): number {
  const limit = config.SEARCH_TOTAL_EXACT_LIMIT;
  return countedTotal(counted, limit > 0 ? limit + 1 : undefined).total;
}

async function hybridLatency(port: number, queries: Record<string, string>[]) {
  const { agent, client, close } = await oneRequestAtATime();
  const samples = { http: [] as number[], sql: [] as number[] };
  const timed: { query: Record<string, string>; ms: number }[] = [];
  let overlap = 0;
  let compared = 0;
  let shortPages = 0;
  let totalsDiffer = 0;
  const served: string[][] = [];
  try {
    for (const [i, query] of queries.entries()) {
      const path = `/travels?${new URLSearchParams(query).toString()}`;
      // Alternate which goes first, so neither always finds the pages the other just read.
      const timeHttp = async () => {
        const started = performance.now();
        const answer = await httpGet(agent, port, path);
        return { answer, ms: performance.now() - started };
      };
      await preparedSearch(query);
      const timeSql = async () => {
        const started = performance.now();
        const { total } = await runSearchDirect(client, query);
        return { total, ms: performance.now() - started };
      };
      const viaHttp = i % 2 === 0 ? await timeHttp() : undefined;
      const viaSql = await timeSql();
      const { answer, ms: http } = viaHttp ?? (await timeHttp());
      const { total: directTotal, ms: sql } = viaSql;
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.body}`);
      const body = JSON.parse(answer.body) as { totalRecords: number; records: { id: string }[] };
      if (body.records.length < Math.min(8, body.totalRecords)) shortPages++;
      served.push(body.records.map((r) => r.id));
      if (i === 0) continue;
      if (body.totalRecords !== servedTotal(directTotal)) {
        // With an approximate index (past vectorIndexLoadOptions' approximateFromOffers), each
        // process builds its own on two threads: their neighbours, hence the offers the semantic
        // side alone adds to the total, may differ; pgvector's HNSW (BENCH_VECTOR_INDEX=database)
        // is approximate too, and its iterative scans met a different total at 1,000,000 offers.
        // Exact scoring in memory runs the same search in both.
        const exact = VECTOR_MODE === 'memory' && !loadedIndex().vectors?.approximate;
        if (exact) throw new Error(`totals differ for ${path}`);
        totalsDiffer++;
      }
      samples.http.push(http);
      samples.sql.push(sql);
      timed.push({ query, ms: http });
    }
    // The exact rankings afterwards: their sequential scans would evict the index from the cache
    // between the timed runs.
    for (const [i, query] of SKIP_OVERLAP ? [] : queries.entries()) {
      const truth = (await runSearchDirect(client, query, true)).ids;
      if (truth.length) {
        overlap += served[i].filter((id) => truth.includes(id)).length / truth.length;
        compared++;
      }
    }
  } finally {
    await close();
  }
  if (totalsDiffer)
    console.log(
      `(${totalsDiffer} of ${queries.length} searches: totals differ between HTTP and in process, each process's approximate index its own)`,
    );
  return {
    http: latencyStats(samples.http),
    sql: latencyStats(samples.sql),
    overlap: SKIP_OVERLAP ? undefined : overlap / Math.max(1, compared),
    shortPages,
    slowest: timed.sort((a, b) => b.ms - a.ms),
  };
}

/**
 * The text side of each search as the service computes it, in this process: the analysis (query-analyser.ts; a word's stems are fetched from PostgreSQL the first
 * time it is seen, then cached) and the scoring in memory (block-max, D-90: the matches under the filters, the
 * page's best and the total), timed apart.
 */
/** The typed mix's single common words ("ski", "beach" …: its first group), whose matches are many. */
const COMMON_WORDS = new Set(TYPED_SEARCHES.slice(0, 8).map((query) => query.search));

async function memoryTextSideLatency(queries: Record<string, string>[]) {
  const { index, analysis } = loadedIndex();
  const samples = {
    analysis: [] as number[],
    scoring: [] as number[],
    both: [] as number[],
    commonWords: [] as number[],
    everyMatch: [] as number[],
    commonWordsEveryMatch: [] as number[],
  };
  for (const [i, query] of queries.entries()) {
    const { request } = await preparedSearch(query);
    const reading = analysis.read(request.search);
    const started = performance.now();
    const { terms } = await analysis.analyse(reading, request, index);
    const analysed = performance.now();
    const matches = index.matchByBlocks(textQueryOf(terms), offerFilterOf(request.filters, index.filters));
    matches.best(request.page.offset + request.page.limit, request.tuning.tsvectorFloor);
    matches.countAtLeast(request.tuning.tsvectorFloor);
    const scored = performance.now();
    // the same scoring of every match (TextIndex.match, the path before D-90), in the same run
    const full = index.match(textQueryOf(terms), offerFilterOf(request.filters, index.filters));
    full.best(request.page.offset + request.page.limit, request.tuning.tsvectorFloor);
    full.countAtLeast(request.tuning.tsvectorFloor);
    const scoredFully = performance.now();
    if (i === 0) continue;
    samples.everyMatch.push(scoredFully - scored);
    if (Object.keys(query).length <= 3 && COMMON_WORDS.has(query.search))
      samples.commonWordsEveryMatch.push(scoredFully - scored);
    samples.analysis.push(analysed - started);
    samples.scoring.push(scored - analysed);
    samples.both.push(scored - started);
    if (Object.keys(query).length <= 3 && COMMON_WORDS.has(query.search))
      samples.commonWords.push(scored - analysed);
  }
  return {
    analysis: latencyStats(samples.analysis),
    scoring: latencyStats(samples.scoring),
    both: latencyStats(samples.both),
    commonWords: latencyStats(samples.commonWords),
    everyMatch: latencyStats(samples.everyMatch),
    commonWordsEveryMatch: latencyStats(samples.commonWordsEveryMatch),
  };
}

/**
 * The semantic side's nearest offers alone, from the vectors in memory, as MemoryListing asks them
 * (BENCH_VECTOR_INDEX=memory only): the offers passing the search's filters listed
 * (passingOffersOf, filteredOffersOf), then VectorIndex.nearest for `semanticCandidates`;
 * searches without filters and with filters apart. The text side's best and the spelling
 * neighbours' exact cosines are not in it.
 */
async function memorySemanticSideLatency(queries: Record<string, string>[]) {
  const { index, vectors } = loadedIndex();
  if (!vectors) return undefined;
  const samples = { plain: [] as number[], filtered: [] as number[] };
  for (const [i, query] of queries.entries()) {
    const { request, embedding } = await preparedSearch(query);
    const started = performance.now();
    const passing = passingOffersOf(request.filters, index.filters);
    const filtered = passing && filteredOffersOf(passing);
    vectors.nearest(embedding, request.tuning.semanticCandidates, filtered?.ordinals);
    const took = performance.now() - started;
    if (i === 0) continue;
    (filtered ? samples.filtered : samples.plain).push(took);
  }
  return { plain: latencyStats(samples.plain), filtered: latencyStats(samples.filtered) };
}

async function main(): Promise<void> {
  const server = new URL(SERVER_URL);
  console.log(
    `# search benchmark: ${OFFERS} offers, database ${DATABASE} on ${server.hostname}:${server.port || 5432}`,
  );
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
  );
  let reindex: { full: number; unchanged: number } | undefined;
  if (!SKIP_REINDEX) {
    console.log('reindex:');
    await recreateDatabase();
    reindex = await reindexTwice();
  } else {
    // A database built by an earlier version: its statements are this version's.
    await migrateDatabase({ url: databaseUrl, singleSession: false }, 'search', searchMigrations);
  }
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  const version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]
    .server_version;
  // Steady state, as autovacuum leaves it a minute after a build: visibility map set, statistics fresh.
  await admin.query('VACUUM (ANALYZE) travel_offers');
  const offers = (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM travel_offers')).rows[0].n;
  // The server the figures were taken on, so that runs on different servers can be compared.
  const settings = (
    await admin.query<{ shared_buffers: string; pgvector: string; hnsw_index: string }>(
      `SELECT current_setting('shared_buffers') AS shared_buffers,
         (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector,
         pg_size_pretty(pg_relation_size('travel_offers_embedding_idx')) AS hnsw_index`,
    )
  ).rows[0];
  console.log(
    `server: shared_buffers ${settings.shared_buffers}, pgvector ${settings.pgvector}, HNSW index ${settings.hnsw_index}`,
  );
  await admin.end();

  const port = await freePort();
  const child = await startServer(port);
  benchIndex = await loadBenchIndex();
  const queries = queryMix(QUERIES);
  try {
    if (!ONLY_HYBRID) {
      console.log(
        `listings (${QUERIES} filter-only queries, sequential, after ${offers} offers indexed, PostgreSQL ${version}):`,
      );
      const lat = await latency(port, queries);
      const row = (name: string, s: ReturnType<typeof latencyStats>) =>
        `| ${name} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} |`;
      console.log('| listing (ms) | p50 | p95 | p99 |\n|---|---|---|---|');
      console.log(row('HTTP GET /travels (page + exact total)', lat.http));
      console.log(row('same SQL directly (page + exact total)', lat.sql));
      console.log(row('page alone, SQL directly', lat.page));

      console.log(`throughput (${THROUGHPUT_SECONDS} s per step):`);
      console.log('| clients | HTTP req/s | HTTP p95 ms | SQL req/s | SQL p95 ms |\n|---|---|---|---|---|');
      const listings = new Map<Record<string, string>, Sql>();
      for (const query of queries) listings.set(query, filterStatementsOf(query, config).listing);
      await printThroughput(port, queries, async (pool, query) => {
        const statement = listings.get(query) as Sql;
        await pool.query(statement.text, statement.values);
      });
    }
    const plain = searchMix(HYBRID_QUERIES, false);
    const filteredMix = searchMix(HYBRID_QUERIES, true);
    const tuning = rankingTuningOf({}, config);
    console.log(
      `hybrid searches (${HYBRID_QUERIES} each, sequential; w ${tuning.rrfVectorWeight}, floors ${tuning.semanticFloor}/${tuning.tsvectorFloor}, ` +
        `${tuning.semanticCandidates} candidates, spelling neighbours up to ${tuning.spellingNeighbourMaxDocuments} offers, ef_search ${tuning.hnsw.efSearch}, max_scan_tuples ${tuning.hnsw.maxScanTuples}, ${tuning.hnsw.iterativeScan}):`,
    );
    console.log(
      '| hybrid (ms) | p50 | p95 | p99 | top-8 overlap with exact | short pages |\n|---|---|---|---|---|---|',
    );
    for (const [name, mix] of [
      ['hybrid search', plain],
      ['filtered hybrid search', filteredMix],
    ] as const) {
      const h = await hybridLatency(port, mix);
      console.log(
        `| ${name}, HTTP | ${ms(h.http.p50)} | ${ms(h.http.p95)} | ${ms(h.http.p99)} | ${h.overlap === undefined ? 'skipped' : `${(h.overlap * 100).toFixed(1)}%`} | ${h.shortPages} |`,
      );
      console.log(`| ${name}, ${DIRECT} | ${ms(h.sql.p50)} | ${ms(h.sql.p95)} | ${ms(h.sql.p99)} | | |`);
    }
    // Searches typed as people type them, one at a time, then with 4 clients.
    const typed = TYPED_SEARCHES.map((query) => ({ ...query, infoDensity: 'card', size: '8' }));
    const typedRounds = Array.from({ length: TYPED_ROUNDS }, () => typed).flat();
    const typedLatency = await hybridLatency(port, typedRounds);
    console.log(
      `typed searches (${typed.length} searches × ${TYPED_ROUNDS}, sequential; text side in memory):`,
    );
    console.log('| typed searches (ms) | p50 | p95 | p99 |\n|---|---|---|---|');
    console.log(
      `| HTTP | ${ms(typedLatency.http.p50)} | ${ms(typedLatency.http.p95)} | ${ms(typedLatency.http.p99)} |`,
    );
    console.log(
      `| ${DIRECT} | ${ms(typedLatency.sql.p50)} | ${ms(typedLatency.sql.p95)} | ${ms(typedLatency.sql.p99)} |`,
    );
    console.log(
      `slowest over HTTP (each search's slowest time): ${typedLatency.slowest
        .filter((sample, i, all) => all.findIndex((other) => other.query === sample.query) === i)
        .slice(0, 8)
        .map(
          ({ query, ms: took }) =>
            `${JSON.stringify({ ...query, infoDensity: undefined, size: undefined })} ${ms(took)}`,
        )
        .join('; ')}`,
    );
    await printServiceMemory(child, port);
    const inMemory = await memoryTextSideLatency(typedRounds);
    for (const [name, figures] of [
      ['analysis (query-analyser.ts)', inMemory.analysis],
      ['scoring in memory (every match, page, total)', inMemory.scoring],
      ['analysis + scoring', inMemory.both],
      ['scoring in memory, the single common words alone (ski, beach …)', inMemory.commonWords],
      ['scoring every match (TextIndex.match, before D-90), same run', inMemory.everyMatch],
      ['scoring every match, the single common words alone, same run', inMemory.commonWordsEveryMatch],
    ] as const) {
      console.log(
        `| text side alone, in process: ${name} | ${ms(figures.p50)} | ${ms(figures.p95)} | ${ms(figures.p99)} |`,
      );
    }
    const semanticSide = await memorySemanticSideLatency(typedRounds);
    if (semanticSide) {
      for (const [name, figures] of [
        ['without filters', semanticSide.plain],
        ['with filters (their offers listed included)', semanticSide.filtered],
      ] as const) {
        console.log(
          `| semantic side alone, in process: nearest offers (VectorIndex.nearest), ${name}, ${figures.n} searches | ${ms(figures.p50)} | ${ms(figures.p95)} | ${ms(figures.p99)} |`,
        );
      }
    }
    // Hostile searches (D-72): written to cost as much analysis as 500 characters can, one at
    // a time over HTTP, each TYPED_ROUNDS times; their worst beside the typed mix.
    const hostileAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const hostile: { name: string; worst: number }[] = [];
    const hostileSamples: number[] = [];
    for (const [name, search] of HOSTILE_SEARCHES) {
      const path = `/travels?${new URLSearchParams({ search, infoDensity: 'card', size: '8' }).toString()}`;
      let worst = 0;
      for (let round = 0; round < TYPED_ROUNDS; round++) {
        const started = performance.now();
        const answer = await httpGet(hostileAgent, port, path);
        const took = performance.now() - started;
        if (answer.status !== 200) throw new Error(`hostile search "${name}" answered ${answer.status}`);
        hostileSamples.push(took);
        worst = Math.max(worst, took);
      }
      hostile.push({ name, worst });
    }
    hostileAgent.destroy();
    hostile.sort((a, b) => b.worst - a.worst);
    const hostileStats = latencyStats(hostileSamples);
    const hostileInMemory = await memoryTextSideLatency(
      HOSTILE_SEARCHES.map(([, search]) => ({ search, infoDensity: 'card', size: '8' })),
    );
    console.log(
      `hostile searches (${HOSTILE_SEARCHES.length} × ${TYPED_ROUNDS}, sequential, HTTP): p50 ${ms(hostileStats.p50)}, ` +
        `p95 ${ms(hostileStats.p95)}, worst ${ms(hostile[0].worst)} ms ("${hostile[0].name}"), beside the typed mix's ` +
        `p50 ${ms(typedLatency.http.p50)} / p95 ${ms(typedLatency.http.p95)}; their analysis in process: ` +
        `p50 ${ms(hostileInMemory.analysis.p50)}, p99 ${ms(hostileInMemory.analysis.p99)} ms ` +
        `(typed: ${ms(inMemory.analysis.p50)} / ${ms(inMemory.analysis.p99)})`,
    );
    console.log(
      `slowest hostile: ${hostile
        .slice(0, 5)
        .map(({ name, worst }) => `${name} ${ms(worst)}`)
        .join('; ')}`,
    );
    // --- LanceDB peer (BENCH_PEER=0 skips it): the same offers, vectors and typed searches, in process ---
    if (env.BENCH_PEER !== '0') {
      // The query vectors are the service's query embeddings, computed before any timing.
      const queryVectors = await Promise.all(TYPED_SEARCHES.map((query) => builtin.embedQuery(query.search)));
      // The offers the reindex built (BENCH_SKIP_REINDEX=1: as many as the database holds).
      const peer = await measureLanceDbPeer(
        benchOffers(SKIP_REINDEX ? offers : OFFERS),
        await storedVectors(),
        TYPED_SEARCHES,
        queryVectors,
        TYPED_ROUNDS,
        { ef: PEER_EF },
      );
      console.log('| typed searches (ms) | p50 | p95 | p99 |\n|---|---|---|---|');
      for (const [name, figures] of [
        ['LanceDB hybrid (HNSW + FTS + RRF), in process (peer)', peer.hybrid],
        [
          'LanceDB hybrid, its default fusion (native RRF, no JS reranker), in process (peer)',
          peer.hybridNative,
        ],
        ['LanceDB FTS, in process (peer)', peer.fts],
      ] as const) {
        console.log(`| ${name} | ${ms(figures.p50)} | ${ms(figures.p95)} | ${ms(figures.p99)} |`);
      }
      const ratio = (ours: number, theirs: number) => `${(ours / theirs).toFixed(1)}×`;
      console.log(
        `ratio to the hybrid peer: p50 ${ratio(typedLatency.http.p50, peer.hybrid.p50)}, p95 ${ratio(typedLatency.http.p95, peer.hybrid.p95)} ` +
          `(typed mix over HTTP); in process p50 ${ratio(typedLatency.sql.p50, peer.hybrid.p50)}, p95 ${ratio(typedLatency.sql.p95, peer.hybrid.p95)}; ` +
          `to its default (native) fusion: HTTP p50 ${ratio(typedLatency.http.p50, peer.hybridNative.p50)}, p95 ${ratio(typedLatency.http.p95, peer.hybridNative.p95)}, ` +
          `in process p50 ${ratio(typedLatency.sql.p50, peer.hybridNative.p50)}, p95 ${ratio(typedLatency.sql.p95, peer.hybridNative.p95)}`,
      );
      console.log(
        `| LanceDB peer, ${peer.offers} offers | seconds |\n|---|---|\n| table write (vectors included) | ${peer.writeSeconds.toFixed(1)} |\n` +
          `| index build (FTS + scalar) | ${peer.indexSeconds.toFixed(1)} |\n` +
          `| index build (HNSW-SQ, cosine, one partition) | ${peer.vectorIndexSeconds.toFixed(1)} |`,
      );
      const nothing = (figures: typeof peer.fts) =>
        `${figures.zeroResults}${figures.zeroResults ? ` (${figures.zeroResultSearches.join('; ')})` : ''}`;
      console.log(
        `LanceDB peer: ${peer.fts.searches} searches timed each way; of ${TYPED_SEARCHES.length} typed searches, found nothing: ` +
          `FTS ${nothing(peer.fts)}, hybrid ${nothing(peer.hybrid)}; HNSW ef ${peer.ef}, recall@8 against its exact search ` +
          `${peer.vectorRecall.toFixed(3)}`,
      );
    }
    // --- end of the LanceDB peer ---
    for (const query of typed) await preparedSearch(query);
    console.log(
      `| typed clients | HTTP req/s | HTTP p95 ms | ${DIRECT} req/s | p95 ms |\n|---|---|---|---|---|`,
    );
    await printThroughput(
      port,
      typed,
      async (pool, query) => {
        const client = await pool.connect();
        try {
          await runSearchDirect(client, query);
        } finally {
          client.release();
        }
      },
      [4],
    );
    console.log(
      `| hybrid clients | HTTP req/s | HTTP p95 ms | ${DIRECT} req/s | p95 ms |\n|---|---|---|---|---|`,
    );
    const mixed = plain.flatMap((query, i) => [query, filteredMix[i]]);
    for (const query of mixed) await preparedSearch(query);
    await printThroughput(port, mixed, async (pool, query) => {
      const client = await pool.connect();
      try {
        await runSearchDirect(client, query);
      } finally {
        client.release();
      }
    });
    if (reindex) {
      console.log('| reindex | seconds |\n|---|---|');
      console.log(`| full, ${OFFERS} offers, built-in provider | ${reindex.full.toFixed(1)} |`);
      console.log(
        `| second, nothing changed | ${reindex.unchanged.toFixed(1)} (${(reindex.full / reindex.unchanged).toFixed(1)}× faster) |`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await benchIndex?.dataSource.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
