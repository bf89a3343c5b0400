import { IsEmail, MinLength } from 'class-validator';
import { StringSetting } from '@rt/platform';

/** The super-admin that start-up seeds in the embedded demo run (main.ts) and `user:create-admin` creates. */
export class AdminSettings {
  /** Super-admin seeded in the embedded demo run (and the default of `user:create-admin`). */
  @StringSetting({ maxLength: 255 })
  @IsEmail()
  ADMIN_EMAIL?: string;

  /** Its password; generated and printed once when unset. */
  @StringSetting({ maxLength: 128 })
  @MinLength(12)
  ADMIN_PASSWORD?: string;
}
