import { departureDaysMultirange, parseDateRanges, toDateMultirange } from './date-ranges';

describe('parseDateRanges', () => {
  it('parses ranges separated by commas, spaces tolerated', () => {
    expect(parseDateRanges('2027-03-01_2027-03-31, 2027-07-01_2027-07-01')).toEqual({
      ok: true,
      ranges: [
        { from: '2027-03-01', to: '2027-03-31' },
        { from: '2027-07-01', to: '2027-07-01' },
      ],
    });
  });

  it('accepts 29 February in a leap year only', () => {
    expect(parseDateRanges('2028-02-29_2028-03-01').ok).toBe(true);
    expect(parseDateRanges('2027-02-29_2027-03-01')).toEqual({
      ok: false,
      message: expect.stringContaining('does not exist'),
    });
  });

  it.each([
    ['2027-03-01', 'YYYY-MM-DD_YYYY-MM-DD'],
    ['2027-3-1_2027-3-2', 'YYYY-MM-DD_YYYY-MM-DD'],
    ['2027-03-01_2027-03-31,', 'YYYY-MM-DD_YYYY-MM-DD'],
    ['2027-03-01T00:00_2027-03-31', 'YYYY-MM-DD_YYYY-MM-DD'],
    ['2027-00-10_2027-01-10', 'does not exist'],
    ['2027-04-31_2027-05-01', 'does not exist'],
    ['2027-03-31_2027-03-01', 'ends before it starts'],
  ])('refuses %s', (value, reason) => {
    expect(parseDateRanges(value)).toEqual({ ok: false, message: expect.stringContaining(reason) });
  });

  it('refuses more than 50 ranges', () => {
    expect(parseDateRanges(Array(51).fill('2027-01-01_2027-01-02').join(',')).ok).toBe(false);
  });
});

describe('multirange literals', () => {
  it('writes inclusive ranges and departure days', () => {
    expect(toDateMultirange([{ from: '2027-01-01', to: '2027-01-31' }])).toBe('{[2027-01-01,2027-01-31]}');
    expect(
      departureDaysMultirange(['2027-01-01T08:00:00', '2027-01-01T18:00:00', '2027-02-03T07:00:00']),
    ).toBe('{[2027-01-01,2027-01-01],[2027-02-03,2027-02-03]}');
    expect(departureDaysMultirange([])).toBe('{}');
  });
});
