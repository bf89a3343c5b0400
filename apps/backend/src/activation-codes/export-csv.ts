import { Transform, TransformCallback } from 'node:stream';
import { EXPORT_HEADER } from './activation-code-listing.sql';

/**
 * Export lines → CSV text: the header line, then one line per code, each ended by `\r\n` (RFC
 * 4180). The input is a stream of batches of lines as PostgreSQL wrote them (`exportSql`'s
 * `csv-lines`: cells quoted and formulas neutralised already); one output chunk (one socket write)
 * per batch, so the stream machinery runs per batch, not per row.
 */
export class CsvOfExportLines extends Transform {
  /** Codes written so far (the header aside). */
  rows = 0;
  private headerWritten = false;

  constructor() {
    super({ writableObjectMode: true });
  }

  override _transform(lines: string[], _encoding: BufferEncoding, callback: TransformCallback): void {
    this.rows += lines.length;
    callback(null, lines.length > 0 ? `${this.header()}${lines.join('\r\n')}\r\n` : this.header());
  }

  override _flush(callback: TransformCallback): void {
    callback(null, this.header());
  }

  private header(): string {
    if (this.headerWritten) return '';
    this.headerWritten = true;
    return `${EXPORT_HEADER}\r\n`;
  }
}
