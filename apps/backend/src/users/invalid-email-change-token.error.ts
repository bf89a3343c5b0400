import { InvalidLinkTokenError } from '../common/invalid-link-token.error';

export const INVALID_EMAIL_CHANGE_TOKEN = 'invalid_email_change_token';

/**
 * A bad, expired, used or cancelled email-change token, confirmation or report (docs/decisions.md
 * D-70).
 */
export class InvalidEmailChangeTokenError extends InvalidLinkTokenError {
  constructor() {
    super(INVALID_EMAIL_CHANGE_TOKEN, 'This email confirmation link is invalid or has expired.');
  }
}
