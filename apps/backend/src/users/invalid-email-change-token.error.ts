import { AppError, ErrorBody, ErrorCode } from '@rt/errors';

export const INVALID_EMAIL_CHANGE_TOKEN = 'invalid_email_change_token';

const MESSAGE = 'This email confirmation link is invalid or has expired.';

/**
 * A bad, expired, used or cancelled email-change token (confirmation or report): 422 with
 * `error: invalid_email_change_token` inside the usual envelope (`errors.token`), as
 * `invalid_reset_token` does for reset links (docs/decisions.md D-26, D-70).
 */
export class InvalidEmailChangeTokenError extends AppError {
  constructor() {
    super(ErrorCode.ValidationFailed, MESSAGE, { token: [MESSAGE] });
  }

  override toBody(): ErrorBody {
    return { ...super.toBody(), error: INVALID_EMAIL_CHANGE_TOKEN };
  }
}
