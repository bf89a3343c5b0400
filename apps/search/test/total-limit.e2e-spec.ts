import { createTestApp, TestApp } from './test-app';

/**
 * SEARCH_TOTAL_EXACT_LIMIT (docs/decisions.md D-52): past the bound a listing stops counting and
 * answers the bound with `totalRecordsRelation: "gte"`; below it, the exact count with "eq". Both
 * listing kinds, against the same index counted exactly.
 */
describe('bounded counting (SEARCH_TOTAL_EXACT_LIMIT)', () => {
  let exact: TestApp;
  let bounded: TestApp;
  const LIMIT = 25;

  beforeAll(async () => {
    exact = await createTestApp({ env: { CATALOGUE_SOURCE: 'generated:300' } });
    await exact.reindex.idle();
    expect(await exact.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 300 });
    bounded = await createTestApp({
      database: exact.database,
      env: { SEARCH_TOTAL_EXACT_LIMIT: String(LIMIT) },
    });
  }, 180_000);
  afterAll(async () => {
    await bounded?.close();
    await exact?.close();
  });

  const list = async (app: TestApp, query: Record<string, string>) =>
    (
      await app.http
        .get('/travels')
        .query({ infoDensity: 'min', ...query })
        .expect(200)
    ).body as {
      totalRecords: number;
      totalRecordsRelation: string;
      records: { id: string }[];
    };

  const QUERIES: Record<string, string>[] = [
    {},
    { destination: 'CH' },
    { destination: 'IS', category: 'wellness' },
    { search: 'ski' },
    { search: 'Zermatt' },
    { search: 'hiking the alps with family' },
    { search: 'beach', seaside: 'true' },
    { search: 'wellness', rrfVectorWeight: '0' },
    { search: 'Lisboa', rrfVectorWeight: '1' },
  ];

  it.each(QUERIES)(
    'answers the bound with "gte" past it, the exact count with "eq" below (%j)',
    async (query) => {
      const truth = await list(exact, query);
      expect(truth.totalRecordsRelation).toBe('eq');
      const answer = await list(bounded, query);
      if (truth.totalRecords > LIMIT) {
        expect(answer).toMatchObject({ totalRecords: LIMIT, totalRecordsRelation: 'gte' });
      } else {
        expect(answer).toMatchObject({ totalRecords: truth.totalRecords, totalRecordsRelation: 'eq' });
      }
      // The same pages either way: only the count is bounded.
      expect(answer.records).toEqual(truth.records);
    },
  );

  it('bounds some listings and not others here (the cases above are not all of one kind)', async () => {
    const relations = await Promise.all(
      QUERIES.map(async (query) => (await list(bounded, query)).totalRecordsRelation),
    );
    expect(new Set(relations)).toEqual(new Set(['eq', 'gte']));
  });

  it('keeps every counted record reachable by paging', async () => {
    const ids: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const answer = await list(bounded, { search: 'hiking', size: '8', page: String(page) });
      expect(answer.totalRecordsRelation).toBe('gte');
      ids.push(...answer.records.map((record) => record.id));
    }
    expect(new Set(ids).size).toBeGreaterThanOrEqual(LIMIT);
  });
});
