/**
 * The tab-separated files of reviewed data the search service reads at start (the gazetteer's,
 * the glossary and its hierarchy): `#` lines are comments and blank lines are skipped, the first
 * other line is the header, then one record a line with as many columns.
 */

/** A line of a data file that cannot be read: `line` is 1-based, as an editor shows it. */
export class DataFileError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${source}, line ${line}: ${reason}`);
    this.name = new.target.name;
  }
}

/** One data line: its number (1-based, as an editor shows it) and its cells, trimmed. */
export interface TsvRow {
  line: number;
  columns: string[];
}

/**
 * The data lines of `text`, read as they are asked for (so a caller checking each row refuses the
 * first bad line, whatever its fault). Throws `error(line, reason)` for a header other than
 * `header`, a line with another column count, and a text without a header.
 */
export function* tsvRows(
  text: string,
  header: readonly string[],
  error: (line: number, reason: string) => Error,
): Generator<TsvRow> {
  let headerSeen = false;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index];
    const line = index + 1;
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const columns = raw.split('\t');
    if (!headerSeen) {
      if (columns.join('\t') !== header.join('\t')) {
        throw error(line, `the header must be "${header.join('<tab>')}"`);
      }
      headerSeen = true;
      continue;
    }
    if (columns.length !== header.length) {
      throw error(line, `${columns.length} columns, ${header.length} expected`);
    }
    yield { line, columns: columns.map((column) => column.trim()) };
  }
  if (!headerSeen) throw error(1, 'no header line');
}

/** The items of a list cell: `;`-separated, trimmed, empty ones dropped. */
export function listCell(cell: string): string[] {
  return cell
    .split(';')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
