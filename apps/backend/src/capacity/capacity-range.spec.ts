import { AppError, ErrorCode, FieldErrors } from '@rt/errors';
import { capacityRangeOf } from './capacity-range';

const NOW = new Date('2026-06-15T12:00:00Z');

/** The per-field problems of the 422 `capacityRangeOf` throws. */
function problemsOf(query: { date?: string; from?: string; to?: string }): FieldErrors {
  try {
    capacityRangeOf(query, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(ErrorCode.ValidationFailed);
    return (error as AppError).fieldErrors ?? {};
  }
  throw new Error(`expected a 422 for ${JSON.stringify(query)}`);
}

describe('capacityRangeOf', () => {
  it('answers one date, or today in Europe/Zurich without any', () => {
    expect(capacityRangeOf({ date: '2026-07-01' }, NOW)).toEqual({
      from: '2026-07-01',
      to: '2026-07-01',
      single: true,
    });
    expect(capacityRangeOf({}, NOW)).toEqual({ from: '2026-06-15', to: '2026-06-15', single: true });
    // 23:30 UTC is already the next day in Zurich (UTC+2 in summer, UTC+1 in winter).
    expect(capacityRangeOf({}, new Date('2026-06-15T23:30:00Z')).from).toBe('2026-06-16');
    expect(capacityRangeOf({}, new Date('2026-12-31T22:59:59Z')).from).toBe('2026-12-31');
    expect(capacityRangeOf({}, new Date('2026-12-31T23:00:00Z')).from).toBe('2027-01-01');
  });

  it('answers a range of departure dates, both ends included, up to the longest allowed', () => {
    expect(capacityRangeOf({ from: '2026-07-01', to: '2026-07-01' }, NOW)).toEqual({
      from: '2026-07-01',
      to: '2026-07-01',
      single: false,
    });
    expect(capacityRangeOf({ from: '2026-07-01', to: '2026-08-31' }, NOW)).toEqual({
      from: '2026-07-01',
      to: '2026-08-31',
      single: false,
    });
  });

  it('refuses a date with from or to', () => {
    const combined = { date: ['The date field cannot be combined with from and to.'] };
    expect(problemsOf({ date: '2026-07-01', from: '2026-07-01' })).toEqual(combined);
    expect(problemsOf({ date: '2026-07-01', to: '2026-07-02' })).toEqual(combined);
  });

  it('needs both ends of a range', () => {
    expect(problemsOf({ to: '2026-07-01' })).toEqual({
      from: ['The from field is required when to is present.'],
    });
    expect(problemsOf({ from: '2026-07-01' })).toEqual({
      to: ['The to field is required when from is present.'],
    });
  });

  it('refuses a range that ends before it starts or spans more than the longest allowed', () => {
    expect(problemsOf({ from: '2026-07-02', to: '2026-07-01' })).toEqual({
      to: ['The to field must be a date on or after from.'],
    });
    expect(problemsOf({ from: '2026-07-01', to: '2026-09-01' })).toEqual({
      to: ['The range from from to to must not span more than 62 days.'],
    });
  });
});
