import { toStoredTime, toWireTime } from './step-time';

describe('step times', () => {
  it('stores HH:MM with zero seconds', () => {
    expect(toStoredTime('09:30')).toBe('09:30:00');
    expect(toStoredTime('00:00')).toBe('00:00:00');
    expect(toStoredTime('23:59')).toBe('23:59:00');
  });

  it('reads H:i:s back, whatever PostgreSQL adds', () => {
    expect(toWireTime('09:30:00')).toBe('09:30:00');
    expect(toWireTime('23:59:00.000000')).toBe('23:59:00');
    expect(toWireTime('07:05')).toBe('07:05:00');
    expect(toWireTime(null)).toBeNull();
  });

  it('refuses what a time column never gives', () => {
    expect(() => toWireTime('9:30')).toThrow();
    expect(() => toWireTime('nonsense')).toThrow();
  });
});
