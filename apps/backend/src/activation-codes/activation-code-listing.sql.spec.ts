import { csvCellSql, FORMULA_START_PATTERN } from './activation-code-listing.sql';

// PostgreSQL runs the pattern (the export's e2e test checks the written cells there); JavaScript
// reads it alike, so each shape is checked here without a database.
const formulaStart = new RegExp(FORMULA_START_PATTERN);

describe('FORMULA_START_PATTERN', () => {
  it.each([
    ['=', '=1+1'],
    ['+', '+1'],
    ['-', '-1'],
    ['@', '@SUM(A1)'],
    ['a tab', '\tx'],
    ['a carriage return', '\rx'],
    ['a line feed', '\n=1+1'],
    ['a line feed alone', '\nAlpine'],
    ['spaces before =', '  =1+1'],
    ['a tab before +', '\t+1'],
    ['a no-break space before -', '\u00a0-1'],
    ['an ideographic space before @', '\u3000@SUM(A1)'],
    ['a full-width =', '＝1+1'],
    ['a full-width +', '＋1'],
    ['a full-width -', '－1'],
    ['a full-width @', '＠SUM(A1)'],
    ['a space before a full-width =', ' ＝HYPERLINK("http://x")'],
  ])('takes a cell starting with %s for a formula', (_shape, cell) => {
    expect(formulaStart.test(cell)).toBe(true);
  });

  it.each([
    ['a name', 'Alpine Adventures'],
    ['an operator inside', 'Alpine = fun'],
    ['a leading space before a letter', ' Alpine'],
    ['a line break inside', 'two\nlines'],
    ['a full-width letter', 'Ａlpine'],
    ['an empty cell', ''],
  ])('leaves %s alone', (_shape, cell) => {
    expect(formulaStart.test(cell)).toBe(false);
  });

  it('is the pattern csvCellSql gives PostgreSQL', () => {
    expect(csvCellSql('o.name')).toContain(`o.name ~ '${FORMULA_START_PATTERN}'`);
  });
});
