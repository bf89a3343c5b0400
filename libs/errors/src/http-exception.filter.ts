import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  NotFoundException,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from './app-error';
import { isDatabaseUnavailable } from './database-unavailable';
import { ErrorCode } from './error-code';

const codeByStatus: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: ErrorCode.BadRequest,
  [HttpStatus.UNAUTHORIZED]: ErrorCode.Unauthenticated,
  [HttpStatus.FORBIDDEN]: ErrorCode.Forbidden,
  [HttpStatus.NOT_FOUND]: ErrorCode.NotFound,
  [HttpStatus.METHOD_NOT_ALLOWED]: ErrorCode.MethodNotAllowed,
  [HttpStatus.CONFLICT]: ErrorCode.Conflict,
  [HttpStatus.PAYLOAD_TOO_LARGE]: ErrorCode.PayloadTooLarge,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: ErrorCode.UnsupportedMediaType,
  [HttpStatus.UNPROCESSABLE_ENTITY]: ErrorCode.ValidationFailed,
  [HttpStatus.TOO_MANY_REQUESTS]: ErrorCode.TooManyRequests,
  [HttpStatus.SERVICE_UNAVAILABLE]: ErrorCode.ServiceUnavailable,
  431: ErrorCode.HeadersTooLarge,
};

/** body-parser and the query parser mark their errors with a `type`; each gets a message a client can act on. */
const bodyParserErrors: Record<string, { code: ErrorCode; message?: string }> = {
  'entity.parse.failed': { code: ErrorCode.MalformedJson },
  'entity.too.large': { code: ErrorCode.PayloadTooLarge },
  'entity.verify.failed': { code: ErrorCode.BadRequest },
  'encoding.unsupported': {
    code: ErrorCode.UnsupportedMediaType,
    message: 'Unsupported Content-Encoding: send the body as is, or gzip, deflate or br.',
  },
  'charset.unsupported': {
    code: ErrorCode.UnsupportedMediaType,
    message: 'Unsupported charset: send the body in UTF-8.',
  },
  'request.aborted': { code: ErrorCode.BadRequest, message: 'The request body was cut off.' },
  'request.size.invalid': {
    code: ErrorCode.BadRequest,
    message: 'The request body does not match its Content-Length.',
  },
  'parameters.too.many': { code: ErrorCode.PayloadTooLarge, message: 'Too many parameters.' },
  'querystring.parse.rangeError': {
    code: ErrorCode.BadRequest,
    message: 'The parameters are nested too deeply.',
  },
};

/** Seconds a client waits before trying again while the database is unreachable (pg's reconnect is immediate). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** What http-errors (used by body-parser, the router and Node's stream decoders) put on an error. */
interface ClientHttpError {
  status?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
}

/** A compressed body that does not decompress (zlib's codes, and brotli's `ERR__ERROR_FORMAT_*`). */
function isUndecodableBody(error: ClientHttpError): boolean {
  return typeof error.code === 'string' && (error.code.startsWith('Z_') || error.code.startsWith('ERR__'));
}

/**
 * Turns anything thrown into the envelope of docs/decisions.md D-3. Known client errors keep their status
 * (an AppError, Nest's HTTP exceptions, and the 4xx that body-parser and the router mark with
 * `expose`); a database that cannot be reached is a 503 `service_unavailable` with `Retry-After`;
 * anything else is a 500 `internal_error` whose details never reach the client.
 */
export function toAppError(exception: unknown): AppError {
  if (exception instanceof AppError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = codeByStatus[status];
    if (code === ErrorCode.ValidationFailed) return AppError.validation({});
    if (code === ErrorCode.TooManyRequests) {
      const retryAfter = (exception as HttpException & { retryAfter?: number }).retryAfter;
      return AppError.tooManyRequests(retryAfter ?? 60);
    }
    if (code) return new AppError(code);
    if (status < 500) return new AppError(ErrorCode.BadRequest);
    return new AppError(ErrorCode.InternalError);
  }
  const clientError = (exception ?? {}) as ClientHttpError;
  if (typeof clientError.type === 'string' && clientError.type in bodyParserErrors) {
    const known = bodyParserErrors[clientError.type];
    return new AppError(known.code, known.message);
  }
  const status = clientError.status;
  if (clientError.expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    if (isUndecodableBody(clientError)) {
      return new AppError(ErrorCode.BadRequest, 'The request body does not match its Content-Encoding.');
    }
    return new AppError(codeByStatus[status] ?? ErrorCode.BadRequest);
  }
  if (isDatabaseUnavailable(exception)) {
    return new AppError(
      ErrorCode.ServiceUnavailable,
      'A service this request needs cannot be reached; try again shortly.',
      undefined,
      undefined,
      { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    );
  }
  return new AppError(ErrorCode.InternalError);
}

export function sendError(response: Response, error: AppError): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.status(error.status).set(error.headers).json(error.toBody());
}

/**
 * The methods a path answers to, for a 405 with `Allow` (empty: the path is unknown, 404).
 * The platform gives the filter one that reads the app's route table.
 */
export type AllowedMethodsOf = (request: Request) => string[];

/**
 * A 500 is logged once, by the request's own log line (pino-http logs `res.err` with its stack,
 * through the logger's redacting error serializer), never sent to the client.
 */
function recordForRequestLog(response: Response, exception: unknown, error: AppError): void {
  let recorded = exception instanceof Error ? exception : new Error(String(exception));
  if (error.code === ErrorCode.ServiceUnavailable) {
    // An outage answers every request this way: its cause in one line, without a stack each time.
    const cause = new Error(recorded.message);
    cause.name = recorded.name;
    cause.stack = `${recorded.name}: ${recorded.message}`;
    recorded = cause;
  }
  (response as Response & { err?: unknown }).err = recorded;
}

/** Answers an error from anywhere in a request (a route, a guard, a pipe, a middleware). */
export function answerError(
  exception: unknown,
  request: Request,
  response: Response,
  allowedMethodsOf?: AllowedMethodsOf,
): void {
  let error = toAppError(exception);
  if (error.code === ErrorCode.NotFound && exception instanceof NotFoundException && allowedMethodsOf) {
    // A path the routes know, asked with a method none of them takes: 405, not 404.
    const allowed = allowedMethodsOf(request);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      error = new AppError(ErrorCode.MethodNotAllowed, undefined, undefined, undefined, {
        Allow: allowed.join(', '),
      });
    }
  }
  if (error.status >= 500) recordForRequestLog(response, exception, error);
  sendError(response, error);
}

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(private readonly allowedMethodsOf?: AllowedMethodsOf) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerError(exception, http.getRequest<Request>(), http.getResponse<Response>(), this.allowedMethodsOf);
  }
}

/** Express error middleware for errors raised before Nest routes run (the body parsers, the edge checks). */
export function expressErrorHandler(
  err: unknown,
  req: Request,
  res: Response,
  _next: (err?: unknown) => void,
): void {
  answerError(err, req, res);
}
