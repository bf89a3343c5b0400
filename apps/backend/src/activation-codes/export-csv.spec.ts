import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { CsvOfExportLines } from './export-csv';

const HEADER =
  'full_code,status,organisation_id,organisation_name,batch_number,purchased_at,used_at,expires_at,created_at\r\n';

describe('CsvOfExportLines', () => {
  it('writes the header alone for no lines', async () => {
    expect(await text(Readable.from([]).pipe(new CsvOfExportLines()))).toBe(HEADER);
    expect(await text(Readable.from([[]]).pipe(new CsvOfExportLines()))).toBe(HEADER);
  });

  it('writes the header once, then every line of every batch ended by CRLF', async () => {
    const batches = Readable.from([['A,1', 'B,"two\nlines"'], [], ['C,3']]);
    expect(await text(batches.pipe(new CsvOfExportLines()))).toBe(
      `${HEADER}A,1\r\nB,"two\nlines"\r\nC,3\r\n`,
    );
  });
});
