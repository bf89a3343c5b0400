import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '@rt/contracts';
import { drive, weightedPicker, type RequestKind } from './driver';
import { parseOptions } from './options';
import { percentile, summarize, KindRecorder } from './stats';

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });
});

describe('summarize', () => {
  it('reports each kind, each service and all, with throughput over the measured seconds', () => {
    const a = new KindRecorder('a', 'backend');
    const b = new KindRecorder('b', 'search');
    a.record(10, 200, 100);
    a.record(30, 500, 50, 'GET / → 500');
    b.record(20, 200, 10);
    const rows = summarize([a, b], 2);
    expect(rows.map((r) => r.kind)).toEqual(['a', 'b', 'all backend', 'all search', 'all']);
    expect(rows[0]).toMatchObject({
      count: 2,
      errors: 1,
      throughput: 1,
      p50: 10,
      p99: 30,
      statuses: { 200: 1, 500: 1 },
    });
    expect(rows[4]).toMatchObject({ count: 3, errors: 1, throughput: 1.5, p50: 20, max: 30 });
  });
});

describe('weightedPicker', () => {
  it('draws in proportion to the weights', () => {
    const pick = weightedPicker([
      { name: 'rare', weight: 1 },
      { name: 'common', weight: 9 },
    ]);
    const random = seededRandom(42);
    let common = 0;
    for (let i = 0; i < 10_000; i++) if (pick(random).name === 'common') common++;
    expect(common).toBeGreaterThan(8_800);
    expect(common).toBeLessThan(9_200);
  });
});

describe('parseOptions', () => {
  it('takes flags over variables over defaults', () => {
    const options = parseOptions(
      ['--', '--connections', '4'],
      { LOAD_CONNECTIONS: '8', LOAD_DURATION_SECONDS: '5' },
      '/r',
    );
    expect(options).toMatchObject({
      connections: 4,
      durationSeconds: 5,
      maxRequests: 100_000,
      out: '/r/.load-results/load.json',
    });
  });

  it('refuses a bad number', () => {
    expect(() => parseOptions(['--connections', '0'], {}, '/r')).toThrow('--connections');
  });
});

describe('drive', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 1_000);
        return;
      }
      res.statusCode = req.url === '/fail' ? 500 : 200;
      res.end('{}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  const kind = (name: string, path: string, weight = 1): RequestKind => ({
    name,
    service: 'search',
    weight,
    build: () => ({ method: 'GET', path }),
  });

  it('counts non-2xx answers and timeouts as errors, and stops at the request cap', async () => {
    const result = await drive([kind('ok', '/ok', 5), kind('fail', '/fail'), kind('slow', '/slow')], {
      connections: 4,
      warmupMs: 0,
      durationMs: 10_000,
      maxRequests: 40,
      requestTimeoutMs: 200,
      ports: { backend: port, search: port },
      aborted: () => false,
    });
    const [ok, fail, slow] = result.recorders;
    expect(result.stoppedBy).toBe('max-requests');
    expect(ok.latencies.length + fail.latencies.length + slow.latencies.length).toBe(40);
    expect(ok.errors).toBe(0);
    expect(fail.errors).toBe(fail.latencies.length);
    expect(fail.samples[0]).toContain('→ 500');
    expect(slow.errors).toBe(slow.latencies.length);
    expect(slow.samples[0]).toContain('timeout');
  });
});
