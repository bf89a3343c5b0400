import { AppError, ErrorBody, ErrorCode } from '@rt/errors';

/**
 * A token of a mailed link that cannot be used (bad, expired, used, or whatever else its feature
 * refuses): 422 with `error: <linkError>` inside the usual envelope (`message`, and `errors` on
 * `token`), so clients can read it either way (docs/decisions.md D-26).
 */
export abstract class InvalidLinkTokenError extends AppError {
  protected constructor(
    private readonly linkError: string,
    message: string,
  ) {
    super(ErrorCode.ValidationFailed, message, { token: [message] });
  }

  override toBody(): ErrorBody {
    return { ...super.toBody(), error: this.linkError };
  }
}
