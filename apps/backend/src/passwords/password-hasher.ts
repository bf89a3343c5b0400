import { Injectable } from '@nestjs/common';
import { hashPassword, needsRehash, ScryptParameters, verifyPassword } from './password-hash';
import { PasswordSettings } from './password.settings';

/** scrypt behind an injectable (src/passwords/password-hash.ts has the parameters and format). */
@Injectable()
export class PasswordHasher {
  private readonly parameters: ScryptParameters;
  private dummyHash?: Promise<string>;

  constructor(settings: PasswordSettings) {
    this.parameters = {
      n: settings.PASSWORD_SCRYPT_N,
      r: settings.PASSWORD_SCRYPT_R,
      p: settings.PASSWORD_SCRYPT_P,
    };
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.parameters);
  }

  /**
   * Checks a password. Without a stored hash (unknown user, or an invitation not yet accepted) it
   * still runs one scrypt against a throw-away hash, so the answer takes as long either way.
   */
  async verify(password: string, storedHash: string | null): Promise<boolean> {
    if (storedHash === null) {
      this.dummyHash ??= this.hash('not a password of anyone');
      await verifyPassword(password, await this.dummyHash);
      return false;
    }
    return verifyPassword(password, storedHash);
  }

  needsRehash(storedHash: string): boolean {
    return needsRehash(storedHash, this.parameters);
  }
}
