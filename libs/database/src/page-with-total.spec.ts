import { pageWithTotalSql, splitPage } from './page-with-total';

describe('pageWithTotalSql', () => {
  it('counts the filtered set and joins the page laterally, with its parameters', () => {
    const sql = pageWithTotalSql({
      counted: 'trips t WHERE t.user_id = $1',
      page: 'SELECT t.id FROM trips t WHERE t.user_id = $1 ORDER BY t.id LIMIT $2 OFFSET $3',
      values: ['u', 20, 0],
    });
    expect(sql).toEqual({
      text: `SELECT t.total, p.*
  FROM (SELECT count(*)::integer AS total FROM trips t WHERE t.user_id = $1) t
  LEFT JOIN LATERAL (SELECT t.id FROM trips t WHERE t.user_id = $1 ORDER BY t.id LIMIT $2 OFFSET $3) p ON true`,
      values: ['u', 20, 0],
    });
  });

  it('writes common table expressions first', () => {
    const sql = pageWithTotalSql({
      with: 'matched AS MATERIALIZED (SELECT id FROM codes)',
      counted: 'matched',
      page: 'SELECT id FROM matched ORDER BY id LIMIT 1',
      values: [],
    });
    expect(
      sql.text.startsWith('WITH matched AS MATERIALIZED (SELECT id FROM codes)\nSELECT t.total, p.*'),
    ).toBe(true);
    expect(sql.text).toContain('FROM (SELECT count(*)::integer AS total FROM matched) t');
  });
});

describe('splitPage', () => {
  it('maps the page rows and reads the total of the first row', () => {
    const rows = [
      { total: 7, id: 'a', name: 'A' },
      { total: 7, id: 'b', name: 'B' },
    ];
    expect(splitPage(rows, (row) => row.name)).toEqual({ items: ['A', 'B'], total: 7 });
  });

  it('leaves out the null row of an empty page but keeps its total', () => {
    const rows = [{ total: 12, id: null, name: null }];
    const toItem = jest.fn((row: (typeof rows)[number]) => row.name);
    expect(splitPage(rows, toItem)).toEqual({ items: [], total: 12 });
    expect(toItem).not.toHaveBeenCalled();
  });

  it('answers a total of 0 without rows, and reads a count that comes back as text', () => {
    expect(splitPage([] as { total: number; id: string }[], (row) => row.id)).toEqual({
      items: [],
      total: 0,
    });
    expect(splitPage([{ total: '3', id: 'x' }], (row) => row.id)).toEqual({ items: ['x'], total: 3 });
  });
});
