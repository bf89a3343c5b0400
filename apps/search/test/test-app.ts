import type { INestApplication, Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { NEST_APP_OPTIONS } from '@rt/platform';
import { createTestDatabase, TestDatabase } from '@rt/testing';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { loadSearchConfig, SearchConfig } from '../src/config';
import { configureSearchHttp } from '../src/http';
import { ReindexService } from '../src/reindex/reindex.service';

export interface TestApp {
  app: INestApplication;
  http: TestAgent;
  dataSource: DataSource;
  config: SearchConfig;
  database: TestDatabase;
  reindex: ReindexService;
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
    close: async () => {
      await reindex.idle();
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}
