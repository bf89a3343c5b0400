import { Transform } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { EXPORT_COLUMNS } from './activation-code-listing.sql';

/** A cell a spreadsheet would read as a formula: it starts with = + - @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The cell as written: a leading `'` neutralises a would-be formula (OWASP's advice for CSV). */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** RFC 4180 through csv-stringify: `\r\n` lines, quotes where needed, nulls empty, formulas neutralised. */
const CSV_OPTIONS = {
  record_delimiter: 'windows',
  // A bare line feed or carriage return is a line break to most readers: quote it too.
  quoted_match: /[\r\n]/,
  cast: { string: neutralizeFormula },
} as const;

/** CSV text of rows (arrays of values in column order). */
export const csvOf = (rows: readonly (readonly unknown[])[]): string =>
  stringify(rows as unknown[][], CSV_OPTIONS);

/**
 * Export rows → CSV text: the header line, then one line per code. The input is a stream of row
 * batches (arrays of rows, each an array of values in EXPORT_COLUMNS order); each batch is
 * written by csv-stringify in one call, so the stream machinery runs per batch, not per row.
 */
export function csvOfExportRows(): Transform {
  let headerWritten = false;
  const header = () => (headerWritten ? '' : ((headerWritten = true), csvOf([EXPORT_COLUMNS])));
  return new Transform({
    writableObjectMode: true,
    transform(batch: unknown[][], _encoding, callback) {
      callback(null, header() + csvOf(batch));
    },
    flush(callback) {
      callback(null, header());
    },
  });
}
