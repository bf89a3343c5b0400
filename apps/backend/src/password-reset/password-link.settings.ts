import { IntSetting } from '@rt/platform';

/** How long the links of reset and invitation emails work (password-link-terms.ts). */
export class PasswordLinkSettings {
  /** Lifetime of a password reset token sent by `POST /forgot-password`. */
  @IntSetting({ min: 1, max: 10080 })
  PASSWORD_RESET_TTL_MINUTES: number = 60;

  /** Lifetime of the token that lets an invited manager set a first password. */
  @IntSetting({ min: 1, max: 90 })
  INVITATION_TTL_DAYS: number = 7;
}
