import { SqlParams } from './sql-params';

describe('SqlParams', () => {
  it('numbers the values in the order they are added, with their cast', () => {
    const params = new SqlParams();
    expect(params.add('santorini')).toBe('$1');
    expect(params.add(['a', 'b'], 'text[]')).toBe('$2::text[]');
    expect(params.add(0.4, 'float8')).toBe('$3::float8');
    expect(params.sql('SELECT $1, $2::text[], $3::float8')).toEqual({
      text: 'SELECT $1, $2::text[], $3::float8',
      values: ['santorini', ['a', 'b'], 0.4],
    });
  });

  it('hands out a copy of its values', () => {
    const params = new SqlParams();
    params.add(1);
    const values = params.values;
    params.add(2);
    expect(values).toEqual([1]);
    expect(params.values).toEqual([1, 2]);
  });
});
