import type { PasswordLinkSettings } from './password-link.settings';
import type { PasswordTokenPurpose } from './password-reset-token.entity';

/** How long a reset or invitation link works, and the page of the client app it opens. */
export interface PasswordLinkTerms {
  /** The client app's page (under CLIENT_APP_URL). */
  page: '/reset-password' | '/accept-invitation';
  /** The token's lifetime from its issue. */
  ttlMs: number;
  /** The lifetime as the email says it. */
  validFor: { amount: number; unit: 'minutes' | 'days' };
}

/** A reset link lasts PASSWORD_RESET_TTL_MINUTES; an invitation, INVITATION_TTL_DAYS. */
export function passwordLinkTerms(
  purpose: PasswordTokenPurpose,
  settings: PasswordLinkSettings,
): PasswordLinkTerms {
  return purpose === 'reset'
    ? {
        page: '/reset-password',
        ttlMs: settings.PASSWORD_RESET_TTL_MINUTES * 60_000,
        validFor: { amount: settings.PASSWORD_RESET_TTL_MINUTES, unit: 'minutes' },
      }
    : {
        page: '/accept-invitation',
        ttlMs: settings.INVITATION_TTL_DAYS * 24 * 3_600_000,
        validFor: { amount: settings.INVITATION_TTL_DAYS, unit: 'days' },
      };
}
