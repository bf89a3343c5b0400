import type { DataSource } from 'typeorm';
import { DatabasePoolMetrics, MetricsService } from './metrics';

const fakeDataSource = (pool: object) => ({ driver: { master: pool } }) as unknown as DataSource;

describe('DatabasePoolMetrics', () => {
  it('reads the pool of the DataSource at each scrape', async () => {
    const metrics = new MetricsService();
    const pool = { totalCount: 4, idleCount: 1, waitingCount: 0, options: { max: 10 } };
    new DatabasePoolMetrics(metrics, fakeDataSource(pool));

    let text = await metrics.registry.metrics();
    expect(text).toContain('db_pool_connections{state="busy"} 3');
    expect(text).toContain('db_pool_connections{state="idle"} 1');
    expect(text).toContain('db_pool_max_connections 10');
    expect(text).toContain('db_pool_waiting_requests 0');

    Object.assign(pool, { totalCount: 10, idleCount: 0, waitingCount: 7 });
    text = await metrics.registry.metrics();
    expect(text).toContain('db_pool_connections{state="busy"} 10');
    expect(text).toContain('db_pool_waiting_requests 7');
  });

  it('adds the extra pools with their name as the pool label, the default pool keeping none', async () => {
    const metrics = new MetricsService();
    const primary = { totalCount: 1, idleCount: 1, waitingCount: 0, options: { max: 10 } };
    const read = { totalCount: 10, idleCount: 0, waitingCount: 4, options: { max: 10 } };
    new DatabasePoolMetrics(metrics, fakeDataSource(primary), { read: fakeDataSource(read) });
    const text = await metrics.registry.metrics();
    expect(text).toContain('db_pool_connections{state="busy"} 0');
    expect(text).toContain('db_pool_connections{pool="read",state="busy"} 10');
    expect(text).toContain('db_pool_waiting_requests 0');
    expect(text).toContain('db_pool_waiting_requests{pool="read"} 4');
    expect(text).toContain('db_pool_max_connections{pool="read"} 10');
  });

  it('registers nothing without a DataSource', async () => {
    const metrics = new MetricsService();
    new DatabasePoolMetrics(metrics);
    await expect(metrics.registry.metrics()).resolves.not.toContain('db_pool_');
  });
});
