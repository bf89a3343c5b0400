import { pageWithTotalSql, type Sql } from '@rt/database';
import { searchFitsCodes } from './activation-code-generator';
import type { CodeStatus } from './activation-code-status';
import { statusesPredicateSql, statusSql } from './activation-code-status.sql';

/**
 * The statements of the listing and the export, built from one filter, so the benchmark runs
 * exactly what the repository runs. Parameterised; `c` is `activation_codes`, `b` its batch, `o`
 * its organization.
 *
 * Indexes: activation_codes_organization_created_idx (organization_id, created_at DESC,
 * full_code) serves an organization's page in order and its count; activation_codes_created_idx
 * (created_at DESC, full_code) the unscoped page and the export's order;
 * activation_codes_symbols_trgm_idx (GIN, gin_trgm_ops, on the symbols without dashes) the infix
 * `search`.
 */
export interface CodeFilter {
  statuses?: readonly CodeStatus[];
  expiresFrom?: Date;
  expiresTo?: Date;
  /** One (the listing) or several (the export); absent or empty: all organizations. */
  organizationIds?: readonly string[];
  /** Part of the code, any case; wildcards are matched literally. */
  search?: string;
}

/** `%`, `_` and `\` matched literally in a LIKE pattern (backslash is LIKE's default escape). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The infix search: the code's symbols (dashes left out) through activation_codes_symbols_trgm_idx,
 * every trigram of the search's symbols informative, then the code itself, exactly; a search no
 * code can hold is a constant false, which PostgreSQL answers without reading anything.
 */
function searchSql(search: string, param: (value: unknown) => string): string {
  if (!searchFitsCodes(search)) return 'false';
  const symbols = search.replace(/-/g, '');
  return `replace(c.full_code, '-', '') ILIKE ${param(`%${escapeLike(symbols)}%`)} AND c.full_code ILIKE ${param(`%${escapeLike(search)}%`)}`;
}

/** The filter's WHERE clause over `c`, its parameters appended to `values`. */
export function codeFilterSql(filter: CodeFilter, values: unknown[]): string {
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const conditions: string[] = [];
  const organizations = filter.organizationIds ?? [];
  if (organizations.length === 1) conditions.push(`c.organization_id = ${param(organizations[0])}::uuid`);
  if (organizations.length > 1) conditions.push(`c.organization_id = ANY(${param(organizations)}::uuid[])`);
  if (filter.statuses && filter.statuses.length > 0)
    conditions.push(statusesPredicateSql(filter.statuses, 'c'));
  // A bound leaves out codes without expiration (NULL compares to nothing).
  if (filter.expiresFrom) conditions.push(`c.expires_at >= ${param(filter.expiresFrom)}`);
  if (filter.expiresTo) conditions.push(`c.expires_at <= ${param(filter.expiresTo)}`);
  if (filter.search) conditions.push(searchSql(filter.search, param));
  return conditions.length > 0 ? conditions.join(' AND ') : 'true';
}

/** The columns of a code resource: the code, its batch number. */
export const CODE_COLUMNS = `c.id, c.full_code, c.organization_id, c.batch_id, b.batch_number, c.expires_at,
       c.purchased_at, c.used_at, c.cancelled_at, c.reimbursed_at, c.claimed_by_user_id, c.created_at,
       to_char(c.trip_starts_on, 'YYYY-MM-DD') AS trip_starts_on, to_char(c.trip_ends_on, 'YYYY-MM-DD') AS trip_ends_on`;

/** The listing's order: newest first, then by code (unique), so pages are stable. */
export const LISTING_ORDER = 'c.created_at DESC, c.full_code';

/**
 * One page and the exact size of the filtered set, in one statement (one snapshot,
 * `pageWithTotalSql`): the count, and the page joined laterally, so an empty page still carries the
 * total (`id` null).
 *
 * With a `search`, the matching codes are gathered first (a MATERIALIZED CTE, through the trigram
 * index or the organization's rows), then counted and sorted. Otherwise the planner, which cannot
 * know how few codes hold an infix (it guesses ~1,600 of a million for four characters where a
 * handful match), walks `activation_codes_created_idx` in page order hoping to meet twenty matches
 * early, and reads the whole table when they do not exist: 0.7 s for a four-character search.
 */
export function listingSql(filter: CodeFilter, page: { limit: number; offset: number }): Sql {
  const values: unknown[] = [];
  const where = codeFilterSql(filter, values);
  values.push(page.limit, page.offset);
  const [limit, offset] = [`$${values.length - 1}`, `$${values.length}`];
  if (filter.search) {
    return pageWithTotalSql({
      with: `matched AS MATERIALIZED (SELECT c.id, c.created_at, c.full_code FROM activation_codes c WHERE ${where})`,
      counted: 'matched',
      page: `
    SELECT ${CODE_COLUMNS}
      FROM (SELECT id FROM matched c ORDER BY ${LISTING_ORDER} LIMIT ${limit} OFFSET ${offset}) m
      JOIN activation_codes c ON c.id = m.id
      JOIN activation_code_batches b ON b.id = c.batch_id
     ORDER BY ${LISTING_ORDER}`,
      values,
    });
  }
  return pageWithTotalSql({
    counted: `activation_codes c WHERE ${where}`,
    page: `
    SELECT ${CODE_COLUMNS}
      FROM activation_codes c
      JOIN activation_code_batches b ON b.id = c.batch_id
     WHERE ${where}
     ORDER BY ${LISTING_ORDER}
     LIMIT ${limit} OFFSET ${offset}`,
    values,
  });
}

/** ISO 8601 UTC with milliseconds and `Z`, as the API writes timestamps, formatted by PostgreSQL. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The export's columns, in order (also the CSV header). */
export const EXPORT_COLUMNS = [
  'full_code',
  'status',
  'organisation_id',
  'organisation_name',
  'batch_number',
  'purchased_at',
  'used_at',
  'expires_at',
  'created_at',
] as const;

export interface ExportKey {
  /** created_at as PostgreSQL's text (microseconds kept), full_code. */
  createdAt: string;
  fullCode: string;
}

/**
 * The start of a CSV cell a spreadsheet may run as a formula (docs/decisions.md D-35): after any
 * leading blanks (spaces, no-break and ideographic spaces, tabs, line breaks), one of `= + - @` or
 * its full-width form (`＝ ＋ － ＠`: spreadsheets fed by East Asian input may read them as the ASCII
 * ones), or a tab or line break itself. One pattern for PostgreSQL's regular expressions and JavaScript's: a bracket
 * expression of escapes both read alike.
 */
export const FORMULA_START_PATTERN =
  '^[\\t\\n\\v\\f\\r \\u00a0\\u3000]*[=+@\\uff1d\\uff0b\\uff0d\\uff20\\t\\n\\r-]';

/**
 * A text cell of the CSV, written by PostgreSQL: a would-be formula (FORMULA_START_PATTERN) gets a
 * leading `'` (OWASP's advice for CSV), then a cell holding a comma, a quote or a line break is
 * quoted with its quotes doubled (RFC 4180); null is empty.
 */
export function csvCellSql(expression: string): string {
  const neutral = `(CASE WHEN ${expression} ~ '${FORMULA_START_PATTERN}' THEN '''' || ${expression} ELSE ${expression} END)`;
  return `coalesce(CASE WHEN ${expression} ~ '[",\\r\\n]' THEN '"' || replace(${neutral}, '"', '""') || '"' ELSE ${neutral} END, '')`;
}

/** Each exported column's value, timestamps already written as text. */
const EXPORT_VALUES: Record<(typeof EXPORT_COLUMNS)[number], string> = {
  full_code: 'c.full_code',
  status: statusSql('c'),
  organisation_id: 'c.organization_id',
  organisation_name: 'o.name',
  batch_number: 'b.batch_number',
  purchased_at: iso('c.purchased_at'),
  used_at: iso('c.used_at'),
  expires_at: iso('c.expires_at'),
  created_at: iso('c.created_at'),
};

/** The export's header line (without its line break). */
export const EXPORT_HEADER = EXPORT_COLUMNS.join(',');

/**
 * The export: every filtered code with its organization's name, in the listing's order. As
 * `columns`, one column per EXPORT_COLUMNS with the timestamps already text (what the benchmark
 * hands to `COPY … CSV`); as `csv-lines`, one column `line`: the row's CSV line written by
 * PostgreSQL, without its line break, so that the app only joins lines and the formatting runs in
 * the database's process rather than on the app's event loop. `after` continues after a key
 * (keyset chunks, on the embedded database) and `limit` bounds a chunk; the key columns come last
 * (`k_created_at`, `k_full_code`) and are not exported.
 */
export function exportSql(
  filter: CodeFilter,
  options: { form: 'columns' | 'csv-lines'; chunk?: { after?: ExportKey; limit: number } },
): Sql {
  const { chunk } = options;
  const values: unknown[] = [];
  let where = codeFilterSql(filter, values);
  if (chunk?.after) {
    values.push(chunk.after.createdAt, chunk.after.fullCode);
    const [at, code] = [`$${values.length - 1}::timestamptz`, `$${values.length}`];
    where += ` AND (c.created_at < ${at} OR (c.created_at = ${at} AND c.full_code > ${code}))`;
  }
  let limit = '';
  if (chunk) {
    values.push(chunk.limit);
    limit = `LIMIT $${values.length}`;
  }
  const selected =
    options.form === 'csv-lines'
      ? `${EXPORT_COLUMNS.map((column) =>
          // Only the name is free text; a code, a status, a uuid, a number and timestamps never need
          // quoting or neutralising.
          column === 'organisation_name'
            ? csvCellSql(EXPORT_VALUES[column])
            : `coalesce(${EXPORT_VALUES[column]}::text, '')`,
        ).join(` || ',' || `)} AS line`
      : EXPORT_COLUMNS.map((column) => `${EXPORT_VALUES[column]} AS ${column}`).join(', ');
  return {
    text: `SELECT ${selected}${chunk ? ',\n       c.created_at::text AS k_created_at, c.full_code AS k_full_code' : ''}
  FROM activation_codes c
  JOIN activation_code_batches b ON b.id = c.batch_id
  JOIN organizations o ON o.id = c.organization_id
 WHERE ${where}
 ORDER BY ${LISTING_ORDER}
 ${limit}`,
    values,
  };
}
