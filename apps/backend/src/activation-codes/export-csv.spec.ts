import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { csvOf, csvOfExportRows, neutralizeFormula } from './export-csv';

describe('neutralizeFormula', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with a quote', (value) => {
    expect(neutralizeFormula(value)).toBe(`'${value}`);
  });

  it.each(['ABCD-EFGH-JKLM', 'in stock', 'Alpine = fun', ''])('leaves %j alone', (value) => {
    expect(neutralizeFormula(value)).toBe(value);
  });
});

describe('csvOf (one field)', () => {
  it.each([
    [null, ''],
    [12, '12'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['-1,5', `"'-1,5"`],
  ])('writes %j as %j', (value, written) => {
    expect(csvOf([[value, 'x']])).toBe(`${written},x\r\n`);
  });
});

describe('csvOfExportRows', () => {
  it('writes the header alone for no rows', async () => {
    expect(await text(Readable.from([]).pipe(csvOfExportRows()))).toBe(
      'full_code,status,organisation_id,organisation_name,batch_number,purchased_at,used_at,expires_at,created_at\r\n',
    );
  });

  it('writes the header, the rows, empty nulls and neutralised formulas', async () => {
    const rows = Readable.from([
      [
        [
          'ABCD-EFGH-JKLM',
          'in stock',
          'c0a8012e-0000-4000-8000-000000000001',
          '=HYPERLINK("http://x","y")',
          3,
          null,
          null,
          '2027-01-01T00:00:00.000Z',
          '2026-11-24T10:00:00.000Z',
        ],
      ],
    ]);
    const csv = await text(rows.pipe(csvOfExportRows()));
    expect(csv).toBe(
      'full_code,status,organisation_id,organisation_name,batch_number,purchased_at,used_at,expires_at,created_at\r\n' +
        'ABCD-EFGH-JKLM,in stock,c0a8012e-0000-4000-8000-000000000001,"\'=HYPERLINK(""http://x"",""y"")",3,,,2027-01-01T00:00:00.000Z,2026-11-24T10:00:00.000Z\r\n',
    );
  });
});
