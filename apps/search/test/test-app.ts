import type { INestApplication, Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createSearchClient, type SearchClient } from '@rt/client';
import { NEST_APP_OPTIONS } from '@rt/platform';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, TestDatabase, waitFor } from '@rt/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { loadSearchConfig, SearchConfig } from '../src/config';
import { configureSearchHttp } from '../src/http/configure-http';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { ReindexService } from '../src/indexes/reindex/reindex.service';
import type { AnalysedQuery } from '../src/query/analysis/analysed-query';
import { QueryAnalysisService } from '../src/indexes/text-index/query-analysis.service';
import type { QueryTerm } from '../src/indexes/text-index/query-terms';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import type { RankingRequest } from '../src/request/listing-request';
import { catalogueFolder, toNdjson } from './catalogue-fixtures';

export interface TestApp {
  app: INestApplication;
  http: TestAgent;
  dataSource: DataSource;
  config: SearchConfig;
  database: TestDatabase;
  reindex: ReindexService;
  /** A search as the service analyses it, against its current text index. */
  analysed(request: RankingRequest): Promise<AnalysedQuery>;
  /** A search's terms as the service analyses them, against its current text index. */
  termsOf(request: RankingRequest): Promise<readonly QueryTerm[]>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment of the service; CATALOGUE_SOURCE defaults to `none` (no automatic build). */
  env?: Record<string, string>;
  /** Controllers that exist only in tests (e.g. to exercise the platform before real routes). */
  controllers?: Type[];
  /** Providers replaced in the test (`{ provide, useValue }`). */
  overrides?: { provide: unknown; useValue: unknown }[];
  /** Reuse a database (a second instance of the service on the same index). */
  database?: TestDatabase;
  providers?: Provider[];
}

/** The search service as `main.ts` builds it, on this test file's own migrated database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase('search'));
  const config = loadSearchConfig({
    APP_ENV: 'local',
    LOG_LEVEL: 'silent',
    CATALOGUE_SOURCE: 'none',
    // the dictionaries are read by the searches that need them, not by a preload competing with
    // the test's own work (a test of the preload sets it)
    SEARCH_DICTIONARY_PRELOAD_MS: '0',
    ...options.env,
  });
  let builder = Test.createTestingModule({
    imports: [AppModule.forRoot({ config, database })],
    controllers: options.controllers ?? [],
    providers: options.providers ?? [],
  });
  for (const override of options.overrides ?? []) {
    builder = builder.overrideProvider(override.provide).useValue(override.useValue);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication(NEST_APP_OPTIONS);
  configureSearchHttp(app, config);
  await app.init();
  const reindex = app.get(ReindexService);
  return {
    app,
    http: request(app.getHttpServer()),
    dataSource: app.get(DataSource),
    config,
    database,
    reindex,
    analysed: async (search) =>
      app.get(QueryAnalysisService).analysedOf(search, await app.get(TextIndexService).loaded()),
    termsOf: async (search) =>
      (await app.get(QueryAnalysisService).analysedOf(search, await app.get(TextIndexService).loaded()))
        .terms,
    close: async () => {
      await reindex.idle();
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * GET /health/ready once it answers 200: the indexes load after the app starts (the vectors after
 * the text index, in the background), and readiness answers 503 until they are there.
 */
export function readyAnswer(t: TestApp): Promise<Response> {
  return waitFor(
    async () => {
      const res = await t.http.get('/health/ready');
      return res.status === 200 ? res : undefined;
    },
    30_000,
    'GET /health/ready to answer 200',
  );
}

/**
 * The service indexed on `records` (an NDJSON catalogue file of its own, removed by `close`), its
 * reindex checked to have taken them all.
 */
export async function createCatalogueTestApp(
  records: CatalogueRecord[],
  env: Record<string, string> = {},
  options: Omit<TestAppOptions, 'env'> = {},
): Promise<TestApp> {
  const folder = await catalogueFolder();
  const source = await folder.file('catalogue.ndjson', toNdjson(records));
  const t = await createTestApp({ ...options, env: { CATALOGUE_SOURCE: source, ...env } });
  await t.reindex.idle();
  const outcome = await t.reindex.run('cli');
  if (outcome.status !== 'succeeded' || outcome.total !== records.length) {
    throw new Error(`the test catalogue was not indexed: ${JSON.stringify(outcome)}`);
  }
  return {
    ...t,
    close: async () => {
      await t.close();
      await folder.cleanup();
    },
  };
}

/**
 * For the tests of the enclosing `describe`: the service indexed on `records` (as
 * createCatalogueTestApp), created before them and closed after them. Call the returned function in
 * a test or a later hook.
 */
export function catalogueTestAppAround(
  records: CatalogueRecord[],
  env: Record<string, string> = {},
): () => TestApp {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createCatalogueTestApp(records, env);
  }, 180_000);
  afterAll(() => t?.close());
  return () => {
    if (t === undefined) throw new Error('the catalogue test app is not created yet (call it inside a test)');
    return t;
  };
}

/** For the tests of the enclosing `describe`: the typed client of catalogueTestAppAround's service. */
export function catalogueClientAround(
  records: CatalogueRecord[],
  env: Record<string, string> = {},
): () => SearchClient {
  const app = catalogueTestAppAround(records, env);
  let client: SearchClient | undefined;
  beforeAll(async () => {
    ({ client } = await searchClientOf(app()));
  });
  return () => {
    if (client === undefined)
      throw new Error('the catalogue client is not created yet (call it inside a test)');
    return client;
  };
}

/**
 * The typed client (`@rt/client`) of a test app, over real HTTP on a loopback port (the app starts
 * listening on the first call); closed with the app.
 */
export async function searchClientOf(t: TestApp): Promise<{ client: SearchClient; baseUrl: string }> {
  const server = t.app.getHttpServer() as import('node:http').Server;
  if (!server.listening) await t.app.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { client: createSearchClient({ baseUrl }), baseUrl };
}

/** `GET /travels` with `query` over `infoDensity=min&size=20`, answered 200: its body. */
export async function listTravels<Body = { totalRecords: number; records: { id: string }[] }>(
  t: TestApp,
  query: Record<string, string>,
): Promise<Body> {
  const res = await t.http
    .get('/travels')
    .query({ infoDensity: 'min', size: '20', ...query })
    .expect(200);
  return res.body as Body;
}

/** The ids the text side alone (`rrfVectorWeight=0`) answers to `search`, in rank order. */
export async function textSideIds(t: TestApp, search: string): Promise<string[]> {
  return (await listTravels(t, { search, rrfVectorWeight: '0' })).records.map((record) => record.id);
}
