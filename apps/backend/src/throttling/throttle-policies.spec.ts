import type { BackendConfig } from '../config';
import { emailFieldOf, normalizedEmail, throttleCounters, throttleKey } from './throttle-policies';

const config = {
  THROTTLE_LOGIN_LIMIT: 5,
  THROTTLE_LOGIN_ADDRESS_LIMIT: 50,
  THROTTLE_LOGIN_WINDOW_SECONDS: 300,
  THROTTLE_PASSWORD_LIMIT: 3,
  THROTTLE_PASSWORD_ADDRESS_LIMIT: 20,
  THROTTLE_PASSWORD_WINDOW_SECONDS: 3600,
  THROTTLE_SIGNUP_LIMIT: 4,
  THROTTLE_SIGNUP_WINDOW_SECONDS: 1800,
} as BackendConfig;

describe('throttle policies', () => {
  it('normalise emails; anything but a string counts as the empty email', () => {
    expect(normalizedEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(normalizedEmail(42)).toBe('');
    expect(normalizedEmail(undefined)).toBe('');
  });

  it('store keys as SHA-256 of the scope and tracker', () => {
    expect(throttleKey('login', 'a|b')).toMatch(/^[0-9a-f]{64}$/);
    expect(throttleKey('login', 'a|b')).not.toBe(throttleKey('forgot-password', 'a|b'));
  });

  it('key each policy on the normalised email and address, and on the address alone', () => {
    const counters = throttleCounters(config, 'login', '  Ada@Example.COM ', '10.0.0.1');
    expect(counters).toEqual({
      address: { key: throttleKey('login/address', '10.0.0.1'), limit: 50, windowMs: 300_000 },
      emailAndAddress: {
        key: throttleKey('login', 'ada@example.com|10.0.0.1'),
        limit: 5,
        windowMs: 300_000,
      },
    });
    expect(throttleCounters(config, 'login', 'ada@example.com', '10.0.0.1')).toEqual(counters);
    expect(throttleCounters(config, 'login', undefined, undefined).emailAndAddress.key).toBe(
      throttleKey('login', '|'),
    );
  });

  it('count apart what one address does from what another does, for the same email', () => {
    for (const policy of ['login', 'forgot-password', 'reset-password', 'signup'] as const) {
      const a = throttleCounters(config, policy, 'ada@example.com', '10.0.0.1');
      const b = throttleCounters(config, policy, 'ada@example.com', '10.0.0.2');
      expect(a.emailAndAddress.key).not.toBe(b.emailAndAddress.key);
      expect(a.address.key).not.toBe(b.address.key);
      // Many emails from one address share the address counter.
      expect(throttleCounters(config, policy, 'grace@example.com', '10.0.0.1').address.key).toBe(
        a.address.key,
      );
    }
  });

  it('give the password routes their own counters, limits and window (in ms)', () => {
    const forgot = throttleCounters(config, 'forgot-password', 'ada@example.com', '10.0.0.1');
    const reset = throttleCounters(config, 'reset-password', 'ada@example.com', '10.0.0.1');
    const login = throttleCounters(config, 'login', 'ada@example.com', '10.0.0.1');
    expect(forgot.emailAndAddress).toMatchObject({ limit: 3, windowMs: 3_600_000 });
    expect(forgot.address).toMatchObject({ limit: 20, windowMs: 3_600_000 });
    expect(reset.emailAndAddress).toMatchObject({ limit: 3, windowMs: 3_600_000 });
    expect(reset.address).toMatchObject({ limit: 20, windowMs: 3_600_000 });
    const keys = [forgot, reset, login].flatMap((c) => [c.address.key, c.emailAndAddress.key]);
    expect(new Set(keys).size).toBe(6);
  });

  it('give signups the same budget per address and per contact email, and their own window', () => {
    const signup = throttleCounters(config, 'signup', 'ada@example.com', '10.0.0.1');
    expect(signup.address).toMatchObject({ limit: 4, windowMs: 1_800_000 });
    expect(signup.emailAndAddress).toMatchObject({ limit: 4, windowMs: 1_800_000 });
    expect(signup.address.key).not.toBe(
      throttleCounters(config, 'forgot-password', 'ada@example.com', '10.0.0.1').address.key,
    );
    expect(emailFieldOf('signup')).toBe('contact_email');
    expect(emailFieldOf('login')).toBe('email');
  });
});
