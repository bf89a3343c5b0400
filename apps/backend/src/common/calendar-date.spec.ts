import { addDays, daysBetween } from './calendar-date';

describe('calendar dates', () => {
  it('adds days across months, years, leap days and daylight-saving changes', () => {
    expect(addDays('2026-11-24', 0)).toBe('2026-11-24');
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-10-24', 2)).toBe('2026-10-26');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('reads years below 100 as themselves, and writes and reads back dates past 9999', () => {
    expect(addDays('0001-01-01', 1)).toBe('0001-01-02');
    expect(addDays('9999-12-31', 1)).toBe('+010000-01-01');
    expect(addDays('+010000-01-01', -1)).toBe('9999-12-31');
    expect(daysBetween('9999-12-31', addDays('9999-12-31', 999))).toBe(999);
    expect(daysBetween('0001-01-01', '0002-01-01')).toBe(365);
  });

  it('counts the days between two dates', () => {
    expect(daysBetween('2026-11-24', '2026-11-24')).toBe(0);
    expect(daysBetween('2026-11-24', '2026-12-25')).toBe(31);
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
    expect(daysBetween('2026-11-25', '2026-11-24')).toBe(-1);
  });
});
