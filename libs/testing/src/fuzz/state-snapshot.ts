/**
 * Fingerprints of what a service stores, taken before and after each request: a refused request
 * (4xx) must leave every fingerprint as it was (no partial write).
 */
export type StateSnapshot = Record<string, string>;

/** Runs one SQL statement (a TypeORM DataSource's `query`, a pg client's, …) and returns its rows. */
export type SqlQuery = (sql: string) => Promise<unknown>;

export interface DatabaseSnapshotOptions {
  schema?: string;
  /** Tables left out, each with the reason (e.g. counters that count refused calls by design). */
  excludeTables?: Record<string, string>;
  /** Columns left out of a table's checksum, each with the reason (e.g. `last_used_at` of tokens). */
  ignoreColumns?: Record<string, { columns: string[]; reason: string }>;
}

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * One statement fingerprinting every table: its row count and the md5 of all its rows as text,
 * in a stable order (ignored columns removed through jsonb first).
 */
export function snapshotSql(
  tables: string[],
  schema = 'public',
  ignoreColumns: DatabaseSnapshotOptions['ignoreColumns'] = {},
): string {
  return tables
    .map((table) => {
      const ignored = ignoreColumns[table]?.columns ?? [];
      const rowText = ignored.length
        ? `(to_jsonb(t) ${ignored.map((column) => `- ${quoteLiteral(column)}`).join(' ')})::text`
        : 't::text';
      return (
        `SELECT ${quoteLiteral(table)} AS name, count(*)::text AS rows, ` +
        `coalesce(md5(string_agg(r, '|' ORDER BY r)), '-') AS digest ` +
        `FROM (SELECT ${rowText} AS r FROM ${quoteIdentifier(schema)}.${quoteIdentifier(table)} t) s`
      );
    })
    .join('\nUNION ALL\n');
}

/** The tables of the schema, then a function taking one snapshot of them all in one statement. */
export async function databaseSnapshotter(
  query: SqlQuery,
  options: DatabaseSnapshotOptions = {},
): Promise<{ tables: string[]; snapshot: () => Promise<StateSnapshot> }> {
  const schema = options.schema ?? 'public';
  const rows = (await query(
    `SELECT table_name AS name FROM information_schema.tables ` +
      `WHERE table_schema = ${quoteLiteral(schema)} AND table_type = 'BASE TABLE' ORDER BY table_name`,
  )) as { name: string }[];
  const excluded = options.excludeTables ?? {};
  const tables = rows.map((row) => row.name).filter((name) => !(name in excluded));
  const sql = snapshotSql(tables, schema, options.ignoreColumns);
  return {
    tables,
    snapshot: async () => {
      const result = (await query(sql)) as { name: string; rows: string; digest: string }[];
      return Object.fromEntries(
        result.map((row) => [`table ${row.name}`, `${row.rows} rows, md5 ${row.digest}`]),
      );
    },
  };
}

/** What changed between two snapshots: one line per fingerprint that differs. */
export function snapshotDifferences(before: StateSnapshot, after: StateSnapshot): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names
    .filter((name) => before[name] !== after[name])
    .map((name) => `${name}: ${before[name] ?? 'absent'} → ${after[name] ?? 'absent'}`);
}

/** Several snapshot sources as one (the database, a storage folder…). */
export function combineSnapshots(...sources: (() => Promise<StateSnapshot>)[]): () => Promise<StateSnapshot> {
  return async () => {
    const snapshot: StateSnapshot = {};
    for (const source of sources) Object.assign(snapshot, await source());
    return snapshot;
  };
}
