import { isStaleTestDatabase, newRunId, runStartOf, STALE_AFTER_MS } from './run-id';

describe('test run ids and stale test databases', () => {
  const started = Date.UTC(2026, 10, 23, 14, 0, 0);
  const id = newRunId(started, 48213);

  it('a run id carries its start time (to the second) and its pid', () => {
    expect(id).toMatch(/^[0-9a-z]+p[0-9a-z]+$/);
    expect(runStartOf(`rt_test_search_${id}_template`)).toBe(started);
    expect(runStartOf(`rt_test_backend_${id}_0a1b2c3d4e5f`)).toBe(started);
    expect(newRunId(started + 999, 48213)).toBe(id);
    expect(newRunId(started, 48214)).not.toBe(id);
  });

  it('names of another shape have no start time', () => {
    expect(runStartOf('rt_test_search_40xooj2_template')).toBeUndefined();
    expect(runStartOf('search_bench')).toBeUndefined();
    expect(runStartOf(`rt_test_search_${id}`)).toBeUndefined();
  });

  it('a database is stale once its run is older than any run lasts, whoever is connected', () => {
    const name = `rt_test_search_${id}_template`;
    expect(isStaleTestDatabase(name, 0, started + 60_000)).toBe(false);
    expect(isStaleTestDatabase(name, 3, started + STALE_AFTER_MS)).toBe(false);
    expect(isStaleTestDatabase(name, 3, started + STALE_AFTER_MS + 1000)).toBe(true);
  });

  it('a name of the former shape is stale when nobody is connected; other databases never are', () => {
    expect(isStaleTestDatabase('rt_test_search_40xooj2_template', 0, started)).toBe(true);
    expect(isStaleTestDatabase('rt_test_search_40xooj2_template', 1, started)).toBe(false);
    expect(isStaleTestDatabase('search_bench', 0, started + 10 * STALE_AFTER_MS)).toBe(false);
    expect(isStaleTestDatabase('postgres', 0, started)).toBe(false);
  });
});
