import { defaultMessageOf, ErrorCode, statusOf } from './error-code';
import { validationSummary } from './field-style';

export type FieldErrors = Record<string, string[]>;

/** The body of a 422 answer. */
export interface ValidationErrorBody {
  message: string;
  errors: FieldErrors;
  reason?: string;
}

/** The body of every other error answer. */
export interface CodedErrorBody {
  message: string;
  error: string;
}

export type ErrorBody = ValidationErrorBody | CodedErrorBody;

/**
 * The one error type services throw. The exception filter turns it into the envelope of
 * docs/decisions.md D-3; `headers` carries e.g. `Retry-After` for 429.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly fieldErrors?: FieldErrors,
    readonly reason?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? defaultMessageOf(code));
    this.name = 'AppError';
    this.status = statusOf(code);
  }

  static validation(fieldErrors: FieldErrors, reason?: string, message?: string): AppError {
    return new AppError(
      ErrorCode.ValidationFailed,
      message ?? validationMessage(fieldErrors),
      fieldErrors,
      reason,
    );
  }

  /** Throws `AppError.validation(fieldErrors)` when any field has a problem; returns otherwise. */
  static throwIfInvalid(fieldErrors: FieldErrors): void {
    if (Object.keys(fieldErrors).length > 0) throw AppError.validation(fieldErrors);
  }

  static notFound(message?: string): AppError {
    return new AppError(ErrorCode.NotFound, message);
  }

  static tooManyRequests(retryAfterSeconds: number): AppError {
    return new AppError(ErrorCode.TooManyRequests, undefined, undefined, undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }

  toBody(): ErrorBody {
    if (this.code === ErrorCode.ValidationFailed) {
      const body: ValidationErrorBody = { message: this.message, errors: this.fieldErrors ?? {} };
      if (this.reason) body.reason = this.reason;
      return body;
    }
    return { message: this.message, error: this.code };
  }
}

/** "The name field is required. (and 2 more errors)", the summary clients show. */
function validationMessage(fieldErrors: FieldErrors): string {
  return validationSummary(Object.values(fieldErrors).flat());
}
