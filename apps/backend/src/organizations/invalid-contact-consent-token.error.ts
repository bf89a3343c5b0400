import { InvalidLinkTokenError } from '../common/invalid-link-token.error';

export const INVALID_CONTACT_CONSENT_TOKEN = 'invalid_contact_consent_token';

/**
 * A bad, expired or used contact-consent token, or one of a consent already accepted
 * (docs/decisions.md D-78).
 */
export class InvalidContactConsentTokenError extends InvalidLinkTokenError {
  constructor() {
    super(INVALID_CONTACT_CONSENT_TOKEN, 'This contact consent link is invalid or has expired.');
  }
}
