import type { BackendConfig } from '../config';
import { loginTracker, normalizedEmail, throttleKey, throttlerOptions } from './throttle-policies';

describe('throttle policies', () => {
  it('key logins on the normalised email and the address', () => {
    expect(loginTracker('  Ada@Example.COM ', '10.0.0.1')).toBe('ada@example.com|10.0.0.1');
    expect(loginTracker(undefined, undefined)).toBe('|');
    expect(normalizedEmail(42)).toBe('');
  });

  it('store keys as SHA-256, distinct per policy', () => {
    expect(throttleKey('login', 'a|b')).toMatch(/^[0-9a-f]{64}$/);
    expect(throttleKey('login', 'a|b')).not.toBe(throttleKey('forgot-password', 'a|b'));
  });

  it('read limits and windows (in ms) from the configuration', () => {
    const options = throttlerOptions({
      THROTTLE_LOGIN_LIMIT: 5,
      THROTTLE_LOGIN_WINDOW_SECONDS: 300,
      THROTTLE_PASSWORD_LIMIT: 3,
      THROTTLE_PASSWORD_WINDOW_SECONDS: 3600,
    } as BackendConfig);
    expect(
      options.map(({ name, limit, ttl, blockDuration }) => ({ name, limit, ttl, blockDuration })),
    ).toEqual([
      { name: 'login', limit: 5, ttl: 300_000, blockDuration: 300_000 },
      { name: 'forgot-password', limit: 3, ttl: 3_600_000, blockDuration: 3_600_000 },
      { name: 'reset-password', limit: 3, ttl: 3_600_000, blockDuration: 3_600_000 },
    ]);
  });
});
