import { toZurichIso, zurichToday } from './zurich-time';

describe('Europe/Zurich time', () => {
  it('writes winter time with +01:00', () => {
    expect(toZurichIso(new Date('2026-01-15T10:20:30.456Z'))).toBe('2026-01-15T11:20:30.456+01:00');
  });

  it('writes summer time with +02:00', () => {
    expect(toZurichIso(new Date('2026-07-01T22:30:00.000Z'))).toBe('2026-07-02T00:30:00.000+02:00');
  });

  it('takes today from the Zurich calendar, not UTC', () => {
    expect(zurichToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });
});
