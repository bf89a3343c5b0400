/**
 * Test database names: `rt_test_<app>_<run id>_template` and `rt_test_<app>_<run id>_<hex>`, the run
 * id being `<start time in seconds, base 36>p<pid, base 36>`. The start time lets a later run
 * recognise the databases of a run that was killed before its teardown.
 */
export const TEST_DATABASE_PREFIX = 'rt_test_';

/** A run started at `nowMs` by process `pid`. */
export function newRunId(nowMs: number, pid: number): string {
  return `${Math.floor(nowMs / 1000).toString(36)}p${pid.toString(36)}`;
}

/** When the run that named this database started (ms), or undefined for a name of another shape. */
export function runStartOf(databaseName: string): number | undefined {
  const match = /^rt_test_[a-z0-9]+_([0-9a-z]+)p[0-9a-z]+_[0-9a-z]+$/.exec(databaseName);
  if (!match) return undefined;
  const seconds = parseInt(match[1], 36);
  return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
}

/** No test run lasts this long: databases of a run started earlier were left by a killed run. */
export const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

/**
 * Whether a test database was left behind by an earlier run: its run started over STALE_AFTER_MS
 * ago, or it has a name of the former shape (no start time) and nobody is connected to it.
 */
export function isStaleTestDatabase(databaseName: string, connections: number, nowMs: number): boolean {
  if (!databaseName.startsWith(TEST_DATABASE_PREFIX)) return false;
  const started = runStartOf(databaseName);
  if (started === undefined) return connections === 0;
  return nowMs - started > STALE_AFTER_MS;
}
