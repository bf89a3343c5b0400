import { BrokenCircuitError } from 'cockatiel';
import { CircuitBreaker } from './circuit-breaker';
import type { CircuitState } from './circuit-breaker';

/** An error that says nothing about the dependency's health (a 429). */
class Busy extends Error {}

const OUTCOMES = {
  success: () => Promise.resolve(),
  failure: () => Promise.reject(new Error('down')),
  neutral: () => Promise.reject(new Busy('busy')),
};

/** One call through the breaker: `true` when it went out, `false` when the breaker refused it at once. */
async function attempt(
  b: CircuitBreaker,
  outcome: keyof typeof OUTCOMES | (() => Promise<void>),
): Promise<boolean> {
  let wentOut = false;
  const run = typeof outcome === 'function' ? outcome : OUTCOMES[outcome];
  try {
    await b.execute(() => {
      wentOut = true;
      return run();
    });
  } catch (error) {
    if (!wentOut) expect(error).toBeInstanceOf(BrokenCircuitError);
  }
  return wentOut;
}

describe('CircuitBreaker', () => {
  let clock: number;
  let changes: string[];
  const breaker = (failureThreshold = 3, cooldownMs = 1000) =>
    new CircuitBreaker({
      failureThreshold,
      cooldownMs,
      isFailure: (error) => !(error instanceof Busy),
      onStateChange: (state: CircuitState, previous: CircuitState) => changes.push(`${previous}→${state}`),
    });
  const fail = async (b: CircuitBreaker, times: number) => {
    for (let i = 0; i < times; i++) {
      expect(await attempt(b, 'failure')).toBe(true);
    }
  };

  beforeEach(() => {
    clock = 10_000;
    changes = [];
    // cockatiel reads the wall clock.
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
  });
  afterEach(() => jest.restoreAllMocks());

  it('stays closed below the threshold; a success resets the count of failures in a row', async () => {
    const b = breaker(3);
    await fail(b, 2);
    expect(b.state).toBe('closed');
    expect(b.failures).toBe(2);
    expect(await attempt(b, 'success')).toBe(true);
    expect(b.failures).toBe(0);
    await fail(b, 2);
    expect(b.state).toBe('closed');
    expect(changes).toEqual([]);
  });

  it('opens after the threshold of failures in a row and refuses calls during the cool-down', async () => {
    const b = breaker(3, 1000);
    await fail(b, 3);
    expect(b.state).toBe('open');
    expect(changes).toEqual(['closed→open']);
    expect(await attempt(b, 'success')).toBe(false);
    expect(b.remainingCooldownMs).toBe(1000);
    clock += 999;
    expect(await attempt(b, 'success')).toBe(false);
    expect(b.remainingCooldownMs).toBe(1);
  });

  it('lets one trial through when the cool-down is over (half-open); concurrent calls are refused', async () => {
    const b = breaker(2, 1000);
    await fail(b, 2);
    clock += 1000;
    expect(b.state).toBe('half_open');
    expect(b.remainingCooldownMs).toBe(0);
    let answer!: () => void;
    const trial = attempt(b, () => new Promise<void>((resolve) => (answer = resolve)));
    expect(await attempt(b, 'success')).toBe(false);
    expect(await attempt(b, 'success')).toBe(false);
    expect(changes).toEqual(['closed→open', 'open→half_open']);
    answer();
    expect(await trial).toBe(true);
  });

  it('closes on a successful trial', async () => {
    const b = breaker(2, 1000);
    await fail(b, 2);
    clock += 1500;
    expect(await attempt(b, 'success')).toBe(true);
    expect(b.state).toBe('closed');
    expect(b.failures).toBe(0);
    expect(await attempt(b, 'success')).toBe(true);
    expect(await attempt(b, 'success')).toBe(true);
    expect(changes).toEqual(['closed→open', 'open→half_open', 'half_open→closed']);
  });

  it('opens again for a whole cool-down on a failed trial', async () => {
    const b = breaker(5, 1000);
    await fail(b, 5);
    clock += 1000;
    expect(await attempt(b, 'failure')).toBe(true);
    expect(b.state).toBe('open');
    expect(b.remainingCooldownMs).toBe(1000);
    clock += 1000;
    expect(b.state).toBe('half_open');
    expect(changes).toEqual(['closed→open', 'open→half_open', 'half_open→open', 'open→half_open']);
  });

  it('a neutral outcome (release) frees the half-open trial without closing or opening', async () => {
    const b = breaker(1, 100);
    await fail(b, 1);
    clock += 100;
    expect(await attempt(b, 'neutral')).toBe(true);
    expect(b.state).toBe('half_open');
    expect(await attempt(b, 'success')).toBe(true);
    expect(b.state).toBe('closed');
  });

  it('a neutral outcome while closed neither counts as a failure nor resets the count', async () => {
    const b = breaker(3);
    await fail(b, 2);
    expect(await attempt(b, 'neutral')).toBe(true);
    expect(b.failures).toBe(2);
    await fail(b, 1);
    expect(b.state).toBe('open');
  });

  it('refuses nonsense parameters', () => {
    expect(() => breaker(0)).toThrow(/failureThreshold/);
    expect(() => breaker(1, -1)).toThrow(/cooldownMs/);
  });
});
