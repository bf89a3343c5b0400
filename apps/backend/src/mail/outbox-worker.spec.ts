import { retryDelaySeconds } from './outbox-worker';

describe('retryDelaySeconds', () => {
  it('doubles the wait after each failed attempt, from the base', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelaySeconds(30, attempts))).toEqual([
      30, 60, 120, 240, 480,
    ]);
  });

  it('caps the wait at six hours', () => {
    expect(retryDelaySeconds(30, 20)).toBe(6 * 3600);
    expect(retryDelaySeconds(30, 1000)).toBe(6 * 3600);
  });
});
