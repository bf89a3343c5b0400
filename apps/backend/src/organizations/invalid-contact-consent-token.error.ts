import { AppError, ErrorBody, ErrorCode } from '@rt/errors';

export const INVALID_CONTACT_CONSENT_TOKEN = 'invalid_contact_consent_token';

const MESSAGE = 'This contact consent link is invalid or has expired.';

/**
 * A bad, expired or used contact-consent token, or one of a consent already accepted: 422 with
 * `error: invalid_contact_consent_token` inside the usual envelope (`errors.token`), as
 * `invalid_reset_token` does for reset links (docs/decisions.md D-26, D-78).
 */
export class InvalidContactConsentTokenError extends AppError {
  constructor() {
    super(ErrorCode.ValidationFailed, MESSAGE, { token: [MESSAGE] });
  }

  override toBody(): ErrorBody {
    return { ...super.toBody(), error: INVALID_CONTACT_CONSENT_TOKEN };
  }
}
