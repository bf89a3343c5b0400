import { createTestDatabase, TestDatabase } from '@rt/testing';
import { loadSearchConfig } from '../src/config';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, TestApp } from './test-app';

/**
 * DATABASE_READ_URL (apps/search/README.md, "Read replicas"): listings read from it, the reindex
 * writes to DATABASE_URL. Here the "replica" is a second database that receives nothing, which
 * shows which database each side uses; test/read-replica.e2e-spec.ts (root, `pnpm test:process`)
 * runs the same on a real streaming standby. On the embedded database (one session) there is no
 * read pool, and the variable needs DATABASE_URL.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL);

describe('DATABASE_READ_URL configuration', () => {
  it('needs DATABASE_URL (the embedded database has no replica)', () => {
    expect(() => loadSearchConfig({ DATABASE_READ_URL: 'postgres://replica/search' })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
  });

  it('refuses a lag bound that is not a non-negative number of seconds', () => {
    for (const bad of ['-1', 'soon', '100000']) {
      expect(() =>
        loadSearchConfig({ DATABASE_URL: 'postgres://p/s', DATABASE_READ_MAX_LAG_SECONDS: bad }),
      ).toThrow(/DATABASE_READ_MAX_LAG_SECONDS/);
    }
    expect(
      loadSearchConfig({ DATABASE_URL: 'postgres://p/s', DATABASE_READ_MAX_LAG_SECONDS: '2.5' })
        .DATABASE_READ_MAX_LAG_SECONDS,
    ).toBe(2.5);
    expect(loadSearchConfig({}).DATABASE_READ_MAX_LAG_SECONDS).toBe(30);
  });
});

(onServer ? describe : describe.skip)('a read database beside the primary', () => {
  let t: TestApp;
  let reader: TestDatabase;
  let folder: Awaited<ReturnType<typeof catalogueFolder>>;

  beforeAll(async () => {
    folder = await catalogueFolder();
    const source = await folder.file('catalogue.ndjson', toNdjson([makeOffer('R1'), makeOffer('R2')]));
    const primary = await createTestDatabase('search');
    reader = await createTestDatabase('search');
    t = await createTestApp({
      database: primary,
      env: { CATALOGUE_SOURCE: source, DATABASE_URL: primary.url, DATABASE_READ_URL: reader.url },
    });
    await t.reindex.idle();
  });
  afterAll(async () => {
    await t.close();
    await t.database.drop();
    await reader.drop();
    await folder.cleanup();
  });

  it('lists from the read database while the reindex writes to the primary', async () => {
    await t.http.get('/reindex').expect(200);
    await t.reindex.idle();
    const [{ total }] = (await t.dataSource.query('SELECT count(*)::int AS total FROM travel_offers')) as {
      total: number;
    }[];
    expect(total).toBe(2);
    const res = await t.http.get('/travels').expect(200);
    expect(res.body).toMatchObject({ totalRecords: 0, records: [] });
  });

  it('reports the read database ready with no lag when it is not a standby', async () => {
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.info).toMatchObject({
      database: { status: 'up' },
      replica: { status: 'up', lag_seconds: 0 },
    });
    const metrics = await t.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^database_replica_lag_seconds 0$/m);
    // Both pools' gauges: the primary's without a label, the read pool's with pool="read".
    expect(metrics.text).toMatch(/^db_pool_max_connections 10$/m);
    expect(metrics.text).toMatch(/^db_pool_max_connections\{pool="read"\} 10$/m);
    expect(metrics.text).toMatch(/^db_pool_waiting_requests\{pool="read"\} \d+$/m);
  });
});
