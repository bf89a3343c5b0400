import { ValidateBy } from 'class-validator';
import { IntSetting } from '@rt/platform';

/** A power of two, when a positive whole number (anything else is left to the other rules). */
const PowerOfTwo = () =>
  ValidateBy({
    name: 'isPowerOfTwo',
    validator: {
      validate: (value: unknown) =>
        typeof value !== 'number' ||
        !Number.isSafeInteger(value) ||
        value < 1 ||
        Number.isInteger(Math.log2(value)),
      defaultMessage: (args) => `must be a power of two (got ${String(args?.value)})`,
    },
  });

/**
 * scrypt cost of new password hashes (see password-hash.ts): N (a power of two), r and p. The
 * defaults are OWASP's "N=2^15, r=8, p=3" (32 MiB per hash). Hashes keep their own parameters, so
 * changing these never invalidates stored passwords; they are rehashed at login.
 */
export class PasswordSettings {
  @PowerOfTwo()
  @IntSetting({ min: 1024, max: 1048576 })
  PASSWORD_SCRYPT_N: number = 32768;

  @IntSetting({ min: 1, max: 32 })
  PASSWORD_SCRYPT_R: number = 8;

  @IntSetting({ min: 1, max: 16 })
  PASSWORD_SCRYPT_P: number = 3;
}
