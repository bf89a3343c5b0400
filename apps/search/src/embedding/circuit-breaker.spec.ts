import { CircuitBreaker } from './circuit-breaker';
import type { CircuitState } from './circuit-breaker';

describe('CircuitBreaker', () => {
  let clock: number;
  let changes: string[];
  const breaker = (failureThreshold = 3, cooldownMs = 1000) =>
    new CircuitBreaker({
      failureThreshold,
      cooldownMs,
      now: () => clock,
      onStateChange: (state: CircuitState, previous: CircuitState) => changes.push(`${previous}→${state}`),
    });
  const fail = (b: CircuitBreaker, times: number) => {
    for (let i = 0; i < times; i++) {
      expect(b.tryAcquire()).toBe(true);
      b.failure();
    }
  };

  beforeEach(() => {
    clock = 10_000;
    changes = [];
  });

  it('stays closed below the threshold; a success resets the count of failures in a row', () => {
    const b = breaker(3);
    fail(b, 2);
    expect(b.state).toBe('closed');
    expect(b.failures).toBe(2);
    expect(b.tryAcquire()).toBe(true);
    b.success();
    expect(b.failures).toBe(0);
    fail(b, 2);
    expect(b.state).toBe('closed');
    expect(changes).toEqual([]);
  });

  it('opens after the threshold of failures in a row and refuses calls during the cool-down', () => {
    const b = breaker(3, 1000);
    fail(b, 3);
    expect(b.state).toBe('open');
    expect(changes).toEqual(['closed→open']);
    expect(b.tryAcquire()).toBe(false);
    expect(b.remainingCooldownMs).toBe(1000);
    clock += 999;
    expect(b.tryAcquire()).toBe(false);
    expect(b.remainingCooldownMs).toBe(1);
  });

  it('lets one trial through when the cool-down is over (half-open); concurrent calls are refused', () => {
    const b = breaker(2, 1000);
    fail(b, 2);
    clock += 1000;
    expect(b.state).toBe('half_open');
    expect(b.remainingCooldownMs).toBe(0);
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false);
    expect(b.tryAcquire()).toBe(false);
    expect(changes).toEqual(['closed→open', 'open→half_open']);
  });

  it('closes on a successful trial', () => {
    const b = breaker(2, 1000);
    fail(b, 2);
    clock += 1500;
    expect(b.tryAcquire()).toBe(true);
    b.success();
    expect(b.state).toBe('closed');
    expect(b.failures).toBe(0);
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(true);
    expect(changes).toEqual(['closed→open', 'open→half_open', 'half_open→closed']);
  });

  it('opens again for a whole cool-down on a failed trial', () => {
    const b = breaker(5, 1000);
    fail(b, 5);
    clock += 1000;
    expect(b.tryAcquire()).toBe(true);
    b.failure();
    expect(b.state).toBe('open');
    expect(b.remainingCooldownMs).toBe(1000);
    clock += 1000;
    expect(b.state).toBe('half_open');
    expect(changes).toEqual(['closed→open', 'open→half_open', 'half_open→open', 'open→half_open']);
  });

  it('a neutral outcome (release) frees the half-open trial without closing or opening', () => {
    const b = breaker(1, 100);
    fail(b, 1);
    clock += 100;
    expect(b.tryAcquire()).toBe(true);
    b.release();
    expect(b.state).toBe('half_open');
    expect(b.tryAcquire()).toBe(true);
    b.success();
    expect(b.state).toBe('closed');
  });

  it('refuses nonsense parameters', () => {
    expect(() => breaker(0)).toThrow(/failureThreshold/);
    expect(() => breaker(1, -1)).toThrow(/cooldownMs/);
  });
});
