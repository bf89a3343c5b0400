import { AppError, ErrorBody, ErrorCode } from '@rt/errors';

export const INVALID_RESET_TOKEN = 'invalid_reset_token';

const MESSAGE = 'This password reset token is invalid or has expired.';

/**
 * A bad, expired or used reset token: 422 with `error: invalid_reset_token` (docs/decisions.md D-26), inside
 * the usual 422 envelope (`message`, and `errors` on `token`), so clients can read it either way.
 */
export class InvalidResetTokenError extends AppError {
  constructor() {
    super(ErrorCode.ValidationFailed, MESSAGE, { token: [MESSAGE] });
  }

  override toBody(): ErrorBody {
    return { ...super.toBody(), error: INVALID_RESET_TOKEN };
  }
}
