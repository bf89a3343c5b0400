import { tripEndsOn } from './trip-window';

describe('tripEndsOn', () => {
  it('ends on the date of the last dated step', () => {
    expect(tripEndsOn('2026-11-24', 1)).toBe('2026-11-24');
    expect(tripEndsOn('2026-11-24', 3)).toBe('2026-11-26');
    expect(tripEndsOn('2026-12-30', 5)).toBe('2027-01-03');
  });

  it('ends on the departure day when the tour has no dated step', () => {
    expect(tripEndsOn('2026-11-24', null)).toBe('2026-11-24');
  });
});
