import type { BackendConfig } from '../config';
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
  config: Pick<BackendConfig, 'PASSWORD_RESET_TTL_MINUTES' | 'INVITATION_TTL_DAYS'>,
): PasswordLinkTerms {
  return purpose === 'reset'
    ? {
        page: '/reset-password',
        ttlMs: config.PASSWORD_RESET_TTL_MINUTES * 60_000,
        validFor: { amount: config.PASSWORD_RESET_TTL_MINUTES, unit: 'minutes' },
      }
    : {
        page: '/accept-invitation',
        ttlMs: config.INVITATION_TTL_DAYS * 24 * 3_600_000,
        validFor: { amount: config.INVITATION_TTL_DAYS, unit: 'days' },
      };
}
