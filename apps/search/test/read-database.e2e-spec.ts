import { loadSearchConfig } from '../src/config';

/**
 * DATABASE_READ_URL (apps/search/README.md, "Read replicas"): its settings. The service on a read
 * database runs in the process tests (`pnpm check:process`, test/read-replica.process-spec.ts): on a
 * second database that receives nothing, which shows which database each side uses, and on a real
 * streaming standby. They need a PostgreSQL server, which `pnpm test` does not (on the embedded
 * database, one session, there is no read pool, and the variable needs DATABASE_URL).
 */
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
