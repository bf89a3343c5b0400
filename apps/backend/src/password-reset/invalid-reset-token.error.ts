import { InvalidLinkTokenError } from '../common/invalid-link-token.error';

export const INVALID_RESET_TOKEN = 'invalid_reset_token';

/** A bad, expired or used reset token (docs/decisions.md D-26). */
export class InvalidResetTokenError extends InvalidLinkTokenError {
  constructor() {
    super(INVALID_RESET_TOKEN, 'This password reset token is invalid or has expired.');
  }
}
