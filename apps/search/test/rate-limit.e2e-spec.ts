import { loadSearchConfig } from '../src/config';
import { createTestApp, TestApp } from './test-app';

/**
 * The flood limit of GET /travels (docs/decisions.md D-73): a token bucket per client
 * address. TRUST_PROXY=1 as deployed (k8s/base/search), so `req.ip` is the address the proxy
 * writes last in X-Forwarded-For, and one test process can speak from several addresses.
 */
describe('search flood limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SEARCH_RATE_LIMIT: 'true',
        SEARCH_RATE_LIMIT_BURST: '3',
        SEARCH_RATE_LIMIT_PER_SECOND: '0.05',
        TRUST_PROXY: '1',
      },
    });
  });
  afterAll(() => t.close());

  const from = (address: string, path: string) => t.http.get(path).set('X-Forwarded-For', address);

  it('answers a burst past the bucket 429 in the envelope, with Retry-After in seconds', async () => {
    for (let i = 0; i < 3; i++) await from('198.51.100.1', '/travels?size=1').expect(200);
    const refused = await from('198.51.100.1', '/travels?search=ski&size=1').expect(429);
    expect(refused.body).toEqual({ message: 'Too many requests.', error: 'too_many_requests' });
    // a token comes back every 20 s (0.05 a second)
    expect(refused.headers['retry-after']).toBe('20');
    expect(refused.headers['x-request-id']).toBeDefined();
    // refused before the query is read: a bad parameter is refused the same way
    await from('198.51.100.1', '/travels?size=0').expect(429);
  });

  it('leaves another address alone', async () => {
    for (let i = 0; i < 3; i++) await from('198.51.100.2', '/travels?size=1').expect(200);
    await from('198.51.100.2', '/travels?size=1').expect(429);
    await from('198.51.100.3', '/travels?size=1').expect(200);
  });

  it('keys an IPv6 client by its /64, and an IPv4 client by its address however it is written', async () => {
    // Rotating through the addresses of one /64 draws on one bucket.
    for (let i = 1; i <= 3; i++) await from(`2001:db8:5:6::${i}`, '/travels?size=1').expect(200);
    await from('2001:db8:5:6:ffff:ffff:ffff:ffff', '/travels?size=1').expect(429);
    await from('2001:db8:5:7::1', '/travels?size=1').expect(200);
    // One IPv4 client, plain or IPv4-mapped, dotted or in hex.
    await from('198.51.100.5', '/travels?size=1').expect(200);
    await from('::ffff:198.51.100.5', '/travels?size=1').expect(200);
    await from('::ffff:c633:6405', '/travels?size=1').expect(200);
    await from('198.51.100.5', '/travels?size=1').expect(429);
    await from('198.51.100.6', '/travels?size=1').expect(200);
  });

  it('never limits health, metrics or the root, and counts the refusals', async () => {
    for (let i = 0; i < 3; i++) await from('198.51.100.4', '/travels?size=1').expect(200);
    await from('198.51.100.4', '/travels?size=1').expect(429);
    for (let i = 0; i < 10; i++) {
      await from('198.51.100.4', '/health/live').expect(200);
      await from('198.51.100.4', '/').expect(200);
      await from('198.51.100.4', '/health/ready').expect((res) => expect(res.status).not.toBe(429));
    }
    const metrics = await from('198.51.100.4', '/metrics').expect(200);
    const refusals = /^search_rate_limited_total (\d+)$/m.exec(metrics.text);
    expect(Number(refusals?.[1])).toBeGreaterThanOrEqual(3);
  });

  it('is off with APP_ENV=local unless turned on, on elsewhere by default', async () => {
    const local = await createTestApp({
      database: t.database,
      env: { SEARCH_RATE_LIMIT_BURST: '1', TRUST_PROXY: '1' },
    });
    try {
      expect(local.config.rateLimitEnabled).toBe(false);
      for (let i = 0; i < 10; i++) {
        await local.http.get('/travels?size=1').set('X-Forwarded-For', '198.51.100.9').expect(200);
      }
    } finally {
      await local.close();
    }
    const defaults = { DATABASE_URL: 'postgres://x@127.0.0.1/x' };
    expect(loadSearchConfig({ ...defaults, APP_ENV: 'production' }).rateLimitEnabled).toBe(true);
    expect(loadSearchConfig({ ...defaults, APP_ENV: 'staging' }).rateLimitEnabled).toBe(true);
    expect(
      loadSearchConfig({ ...defaults, APP_ENV: 'production', SEARCH_RATE_LIMIT: 'false' }).rateLimitEnabled,
    ).toBe(false);
    const production = loadSearchConfig({ ...defaults, APP_ENV: 'production' });
    expect([production.SEARCH_RATE_LIMIT_BURST, production.SEARCH_RATE_LIMIT_PER_SECOND]).toEqual([30, 10]);
  });
});
