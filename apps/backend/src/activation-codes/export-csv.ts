import { Transform } from 'node:stream';
import { EXPORT_HEADER } from './activation-code-listing.sql';

/**
 * Export lines → CSV text: the header line, then one line per code, each ended by `\r\n` (RFC
 * 4180). The input is a stream of batches of lines as PostgreSQL wrote them (`exportSql`'s
 * `csv-lines`: cells quoted and formulas neutralised already); one output chunk (one socket write)
 * per batch, so the stream machinery runs per batch, not per row.
 */
export function csvOfExportLines(): Transform {
  let headerWritten = false;
  const header = () => (headerWritten ? '' : ((headerWritten = true), `${EXPORT_HEADER}\r\n`));
  return new Transform({
    writableObjectMode: true,
    transform(lines: string[], _encoding, callback) {
      callback(null, lines.length > 0 ? `${header()}${lines.join('\r\n')}\r\n` : header());
    },
    flush(callback) {
      callback(null, header());
    },
  });
}
