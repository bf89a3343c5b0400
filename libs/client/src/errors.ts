/**
 * Every error answer of both services, as one typed error (docs/decisions.md D-3):
 * 422 `{message, errors, reason?}`, every other status `{message, error}`.
 */

/** The stable machine codes of `{message, error}` answers (libs/errors `ErrorCode`, both services). */
export const ERROR_CODES = [
  'malformed_json',
  'bad_request',
  'unauthenticated',
  'forbidden',
  'hat_not_held',
  'organization_not_approved',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'conflict',
  'email_not_restorable',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'request_header_fields_too_large',
  'internal_error',
  'embedding_unavailable',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The stable rejection codes some 422 answers carry in `reason` (the backend's contract names them). */
export const VALIDATION_REASONS = [
  // POST /activation-codes/claim
  'already_claimed',
  'code_cancelled',
  'code_reimbursed',
  'code_expired',
  // POST /trips (with code_cancelled, code_reimbursed, code_expired)
  'not_claimed',
  'code_used',
  'tour_not_active',
  'starts_in_past',
  // PUT /user (email), POST /user/email-confirmation (token), POST /organizations (manager_email),
  // POST /organizations/signup (contact_email): another account holds the address, or it is
  // reserved to one (the old address of its email change whose report link still works)
  'email_taken',
] as const;
export type ValidationReason = (typeof VALIDATION_REASONS)[number];

/** Field → messages; nested fields use dots (`steps.0.time`), the hat header is `x-viewing-as`. */
export type FieldErrors = Record<string, string[]>;

/** A 422 answer. `error` is set by the client (the wire body has none) so that every body has one. */
export interface ValidationErrorBody {
  error: 'validation_failed';
  message: string;
  errors: FieldErrors;
  /** Absent on plain field validation errors. */
  reason?: ValidationReason;
}

/** `POST /reset-password` with a bad, expired or used token: a 422 that also names its code. */
export interface InvalidResetTokenBody {
  error: 'invalid_reset_token';
  message: string;
  errors: FieldErrors;
}

/** `POST /user/email-confirmation`, `POST /user/email-change-report` with a bad, expired or used token. */
export interface InvalidEmailChangeTokenBody {
  error: 'invalid_email_change_token';
  message: string;
  errors: FieldErrors;
}

/** `POST /organization-contact-consent` with a bad, expired or used token. */
export interface InvalidContactConsentTokenBody {
  error: 'invalid_contact_consent_token';
  message: string;
  errors: FieldErrors;
}

/** Any other status: `{message, error}`. */
export type CodedErrorBody = { [Code in ErrorCode]: { error: Code; message: string } }[ErrorCode];

/**
 * An error answer that is not the envelope (a proxy's HTML page, an empty 502 ...): `text` is
 * what came, at most 2,000 characters.
 */
export interface UnexpectedErrorBody {
  error: 'unexpected_response';
  message: string;
  text: string;
}

/** Discriminated on `error`. */
export type ApiErrorBody =
  | ValidationErrorBody
  | InvalidResetTokenBody
  | InvalidEmailChangeTokenBody
  | InvalidContactConsentTokenBody
  | CodedErrorBody
  | UnexpectedErrorBody;
export type ApiErrorCode = ApiErrorBody['error'];

/**
 * Thrown by every client call whose answer is not a 2xx. `body` is the parsed envelope,
 * discriminated on `error` (`switch (e.body.error)` narrows it); `requestId` is the
 * `X-Request-Id` the server logged it under.
 *
 * ```ts
 * try { await api.POST('/activation-codes/claim', { body: { full_code } }); }
 * catch (e) {
 *   if (isApiError(e, 'validation_failed') && e.body.reason === 'already_claimed') …
 * }
 * ```
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The envelope, `error` being its discriminant. */
    readonly body: ApiErrorBody,
    /** `X-Request-Id` of the answer, to find the server's log line; null when absent. */
    readonly requestId: string | null,
    /** Method and URL of the call, for logs. */
    readonly request: { method: string; url: string },
    /**
     * Seconds to wait before trying again (`Retry-After` of a 429 or a 503, given in seconds or as
     * an HTTP date); null when the answer has none.
     */
    readonly retryAfter: number | null = null,
  ) {
    super(`${request.method} ${request.url} → ${status} ${body.error}: ${body.message}`);
  }

  /** The machine code: `body.error`. */
  get error(): ApiErrorCode {
    return this.body.error;
  }

  /** Narrows to the answers of these codes: `if (e.is('hat_not_held', 'forbidden')) …`. */
  is<Code extends ApiErrorCode>(...codes: Code[]): this is ApiErrorOf<Code> {
    return (codes as string[]).includes(this.body.error);
  }
}

/** An ApiError whose body is that of `Code`. */
export type ApiErrorOf<Code extends ApiErrorCode> = ApiError & {
  readonly body: Extract<ApiErrorBody, { error: Code }>;
};

/** `e` is an ApiError (of one of `codes`, when given). */
export function isApiError<Code extends ApiErrorCode = ApiErrorCode>(
  e: unknown,
  ...codes: Code[]
): e is ApiErrorOf<Code> {
  return e instanceof ApiError && (codes.length === 0 || (codes as string[]).includes(e.body.error));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The envelope of an error answer; `payload` is what openapi-fetch read (JSON, else text). */
export function toErrorBody(status: number, payload: unknown): ApiErrorBody {
  if (isRecord(payload) && typeof payload.message === 'string') {
    const { message } = payload;
    if (isRecord(payload.errors)) {
      const errors = payload.errors as FieldErrors;
      if (payload.error === 'invalid_reset_token') return { error: 'invalid_reset_token', message, errors };
      if (payload.error === 'invalid_email_change_token') {
        return { error: 'invalid_email_change_token', message, errors };
      }
      if (payload.error === 'invalid_contact_consent_token') {
        return { error: 'invalid_contact_consent_token', message, errors };
      }
      const body: ValidationErrorBody = { error: 'validation_failed', message, errors };
      if (typeof payload.reason === 'string') body.reason = payload.reason as ValidationReason;
      return body;
    }
    if (typeof payload.error === 'string') return { error: payload.error as ErrorCode, message };
  }
  const text = typeof payload === 'string' ? payload : payload === undefined ? '' : JSON.stringify(payload);
  return {
    error: 'unexpected_response',
    message: `HTTP ${status} without the error envelope.`,
    text: text.slice(0, 2000),
  };
}

/** The ApiError of a non-2xx answer to `method` `url` (payload: the body, JSON-parsed when it was JSON). */
export function toApiError(method: string, url: string, response: Response, payload: unknown): ApiError {
  return new ApiError(
    response.status,
    toErrorBody(response.status, payload),
    response.headers.get('X-Request-Id'),
    {
      method,
      url,
    },
    retryAfterSeconds(response.headers.get('Retry-After')),
  );
}

/** `Retry-After` in seconds (RFC 9110: a number of seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: Date = new Date()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}
