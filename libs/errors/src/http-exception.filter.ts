import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from './app-error';
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
};

/** body-parser marks its errors with a `type`; these are the client's fault, never a 500. */
const codeByBodyParserType: Record<string, ErrorCode> = {
  'entity.parse.failed': ErrorCode.MalformedJson,
  'entity.too.large': ErrorCode.PayloadTooLarge,
  'encoding.unsupported': ErrorCode.UnsupportedMediaType,
  'charset.unsupported': ErrorCode.UnsupportedMediaType,
  'request.aborted': ErrorCode.BadRequest,
  'request.size.invalid': ErrorCode.BadRequest,
  'parameters.too.many': ErrorCode.PayloadTooLarge,
};

/**
 * Turns anything thrown into the envelope of decisions.md. Known client errors keep their status;
 * anything else is a 500 `internal_error`, logged once with its stack (never sent to the client).
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
  const bodyParserType = (exception as { type?: unknown } | null)?.type;
  if (typeof bodyParserType === 'string' && bodyParserType in codeByBodyParserType) {
    return new AppError(codeByBodyParserType[bodyParserType]);
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

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { id?: unknown }>();
    const response = http.getResponse<Response>();
    const error = toAppError(exception);
    if (error.status >= 500) this.logUnexpected(exception, request);
    sendError(response, error);
  }

  private logUnexpected(exception: unknown, request: Request & { id?: unknown }): void {
    const err = exception instanceof Error ? exception : new Error(String(exception));
    this.logger.error(
      { err, requestId: request.id, method: request.method, url: request.originalUrl },
      'Unhandled error',
    );
  }
}

/** Express error middleware for errors raised before Nest routes run (the JSON body parser). */
export function expressErrorHandler(
  err: unknown,
  req: Request & { id?: unknown },
  res: Response,
  _next: (err?: unknown) => void,
): void {
  const error = toAppError(err);
  if (error.status >= 500) {
    new Logger('HttpExceptionFilter').error(
      { err, requestId: req.id, method: req.method, url: req.originalUrl },
      'Unhandled error',
    );
  }
  sendError(res, error);
}
