/** Stable machine codes of the error envelope (docs/decisions.md D-5). Clients parse them. */
export enum ErrorCode {
  ValidationFailed = 'validation_failed',
  MalformedJson = 'malformed_json',
  Unauthenticated = 'unauthenticated',
  Forbidden = 'forbidden',
  HatNotHeld = 'hat_not_held',
  OrganizationNotApproved = 'organization_not_approved',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  Conflict = 'conflict',
  /** A report of an email change whose old address another account holds (docs/decisions.md D-70). */
  EmailNotRestorable = 'email_not_restorable',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  TooManyRequests = 'too_many_requests',
  InternalError = 'internal_error',
  EmbeddingUnavailable = 'embedding_unavailable',
  ServiceUnavailable = 'service_unavailable',
  BadRequest = 'bad_request',
  RequestTimeout = 'request_timeout',
  HeadersTooLarge = 'request_header_fields_too_large',
}

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.ValidationFailed:
      return 422;
    case ErrorCode.MalformedJson:
    case ErrorCode.BadRequest:
      return 400;
    case ErrorCode.Unauthenticated:
      return 401;
    case ErrorCode.Forbidden:
    case ErrorCode.HatNotHeld:
    case ErrorCode.OrganizationNotApproved:
      return 403;
    case ErrorCode.NotFound:
      return 404;
    case ErrorCode.MethodNotAllowed:
      return 405;
    case ErrorCode.RequestTimeout:
      return 408;
    case ErrorCode.Conflict:
    case ErrorCode.EmailNotRestorable:
      return 409;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.UnsupportedMediaType:
      return 415;
    case ErrorCode.TooManyRequests:
      return 429;
    case ErrorCode.HeadersTooLarge:
      return 431;
    case ErrorCode.InternalError:
      return 500;
    case ErrorCode.EmbeddingUnavailable:
    case ErrorCode.ServiceUnavailable:
      return 503;
    default:
      return assertNever(code);
  }
}

export function defaultMessageOf(code: ErrorCode): string {
  switch (code) {
    case ErrorCode.ValidationFailed:
      return 'The given data was invalid.';
    case ErrorCode.MalformedJson:
      return 'The request body is not valid JSON.';
    case ErrorCode.BadRequest:
      return 'The request could not be understood.';
    case ErrorCode.Unauthenticated:
      return 'Unauthenticated.';
    case ErrorCode.Forbidden:
      return 'This action is forbidden.';
    case ErrorCode.HatNotHeld:
      return 'You do not hold this viewing context.';
    case ErrorCode.OrganizationNotApproved:
      return 'This organization is not approved.';
    case ErrorCode.NotFound:
      return 'Not found.';
    case ErrorCode.MethodNotAllowed:
      return 'Method not allowed.';
    case ErrorCode.RequestTimeout:
      return 'The request took too long to arrive.';
    case ErrorCode.HeadersTooLarge:
      return 'The request line or headers are too large.';
    case ErrorCode.Conflict:
      return 'The resource changed concurrently.';
    case ErrorCode.EmailNotRestorable:
      return 'The address this notice was sent to belongs to another account: it cannot be restored.';
    case ErrorCode.PayloadTooLarge:
      return 'The request body is too large.';
    case ErrorCode.UnsupportedMediaType:
      return 'Unsupported media type: send application/json.';
    case ErrorCode.TooManyRequests:
      return 'Too many requests.';
    case ErrorCode.InternalError:
      return 'Internal server error.';
    case ErrorCode.EmbeddingUnavailable:
      return 'The embedding provider is unavailable.';
    case ErrorCode.ServiceUnavailable:
      return 'The service is unavailable.';
    default:
      return assertNever(code);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled error code: ${String(value)}`);
}
