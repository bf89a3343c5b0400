// What the drill compares: for every table of every database, its row count and the md5 of its rows'
// text in order, read in one repeatable-read transaction per database (one moment for all its tables).
import { Client } from 'pg';

export interface TableSum {
  rows: number;
  md5: string;
  /** An unlogged table: recovery (from a backup or a crash) leaves it empty, by PostgreSQL's design. */
  unlogged: boolean;
}

/** database → `schema.table` → its sums. */
export type Snapshot = Record<string, Record<string, TableSum>>;

export interface Difference {
  database: string;
  table: string;
  /** Absent: the table is missing on that side. */
  expected?: TableSum;
  actual?: TableSum;
}

export interface Comparison {
  databases: number;
  tables: number;
  /** Rows of the expected snapshot. */
  rows: number;
  /** Tables equal in count and checksum. */
  equal: number;
  /** Unlogged tables that had rows and came back empty (not a difference after a restore). */
  unloggedEmptied: string[];
  differences: Difference[];
}

/** An SQL identifier, quoted. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The count and md5 of one table's rows (as text, sorted as text: independent of the physical order). */
export function tableChecksumSql(schema: string, table: string): string {
  return (
    `SELECT count(*)::bigint AS rows, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS md5 ` +
    `FROM ONLY ${quoteIdent(schema)}.${quoteIdent(table)} AS t`
  );
}

/** Every ordinary table and materialized view outside PostgreSQL's own schemas. */
export const TABLES_SQL = `
  SELECT n.nspname AS schema, c.relname AS table, c.relpersistence = 'u' AS unlogged
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'm')
     AND n.nspname NOT IN ('pg_catalog', 'information_schema')
     AND n.nspname NOT LIKE 'pg\\_toast%'
   ORDER BY 1, 2`;

/** `expected` against `actual`; `afterRecovery`: unlogged tables may come back empty. */
export function compareSnapshots(
  expected: Snapshot,
  actual: Snapshot,
  options: { afterRecovery: boolean },
): Comparison {
  const comparison: Comparison = {
    databases: Object.keys(expected).length,
    tables: 0,
    rows: 0,
    equal: 0,
    unloggedEmptied: [],
    differences: [],
  };
  for (const database of [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()) {
    const want = expected[database] ?? {};
    const got = actual[database] ?? {};
    for (const table of [...new Set([...Object.keys(want), ...Object.keys(got)])].sort()) {
      const e = want[table];
      const a = got[table];
      if (e) {
        comparison.tables++;
        comparison.rows += e.rows;
      }
      if (e && a && e.rows === a.rows && e.md5 === a.md5) {
        comparison.equal++;
      } else if (options.afterRecovery && e?.unlogged && a?.unlogged && a.rows === 0) {
        comparison.unloggedEmptied.push(`${database}.${table}`);
      } else {
        comparison.differences.push({ database, table, expected: e, actual: a });
      }
    }
  }
  return comparison;
}

export function describeDifference(difference: Difference): string {
  const side = (sum?: TableSum) => (sum ? `${sum.rows} rows, md5 ${sum.md5.slice(0, 12)}` : 'missing');
  return `${difference.database}.${difference.table}: expected ${side(difference.expected)}, found ${side(difference.actual)}`;
}

/** Sums of every table of `database`, in one repeatable-read, read-only transaction. */
export async function snapshotDatabase(url: string): Promise<Record<string, TableSum>> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = (await client.query<{ schema: string; table: string; unlogged: boolean }>(TABLES_SQL))
      .rows;
    const sums: Record<string, TableSum> = {};
    for (const { schema, table, unlogged } of tables) {
      const [row] = (await client.query<{ rows: string; md5: string }>(tableChecksumSql(schema, table))).rows;
      sums[`${schema}.${table}`] = { rows: Number(row.rows), md5: row.md5, unlogged };
    }
    await client.query('COMMIT');
    return sums;
  } finally {
    await client.end();
  }
}

export async function takeSnapshot(urls: Record<string, string>): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  for (const [database, url] of Object.entries(urls)) snapshot[database] = await snapshotDatabase(url);
  return snapshot;
}
