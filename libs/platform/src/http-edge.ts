import { CanActivate, ExecutionContext, Injectable, Logger, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AllowedMethodsOf, AppError, ErrorCode } from '@rt/errors';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { METHODS, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** Media types of request bodies: JSON everywhere, multipart only where a route takes a file. */
const JSON_TYPE = 'application/json';
const MULTIPART_TYPE = 'multipart/form-data';

/**
 * Refuses a body that is neither JSON nor multipart with 415 `unsupported_media_type`, before
 * any parser runs. A request without a body (none, or `Content-Length: 0`) passes whatever it says.
 */
export function requireJsonBodies(req: Request, _res: Response, next: NextFunction): void {
  const matched = req.is([JSON_TYPE, MULTIPART_TYPE]);
  if (matched === null || req.headers['content-length'] === '0') return next();
  if (matched === false) return next(new AppError(ErrorCode.UnsupportedMediaType));
  next();
}

/** Whether a request carries a body (chunked, or a Content-Length other than 0). */
function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The route is known before the body is read (docs/decisions.md D-74): a request that carries a
 * body to a path no route knows answers 404, and to a known path with a method none of its routes
 * takes 405 with `Allow`, before its media type, size or JSON are looked at. A request without a
 * body goes on to the router, whose answer is the same (HttpExceptionFilter).
 */
export function requireKnownRoute(allowedMethodsOf: AllowedMethodsOf) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!carriesBody(req)) return next();
    const allowed = allowedMethodsOf(req);
    if (allowed.length === 0) return next(AppError.notFound());
    if (!allowed.includes(req.method)) {
      return next(
        new AppError(ErrorCode.MethodNotAllowed, undefined, undefined, undefined, {
          Allow: allowed.join(', '),
        }),
      );
    }
    next();
  };
}

const ACCEPTS_FILES = 'rt:accepts-files';

/** Lets a route take `multipart/form-data` (file uploads); every other route answers it with 415. */
export const AcceptsFiles = (): MethodDecorator => SetMetadata(ACCEPTS_FILES, true);

@Injectable()
export class MultipartGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.is?.(MULTIPART_TYPE)) return true;
    if (this.reflector.get<boolean>(ACCEPTS_FILES, context.getHandler())) return true;
    throw new AppError(ErrorCode.UnsupportedMediaType);
  }
}

interface RouteLayer {
  route?: { _methods(): string[] };
  match(path: string): unknown;
}

/**
 * Whether a route's pattern matches a path. Express's matcher also decodes the parameters and
 * throws when one is not valid percent-encoded UTF-8 (`%ED%A0%80`): the path matches all the same,
 * and the router answers that with 400 `bad_request`.
 */
function matches(layer: RouteLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    return true;
  }
}

/**
 * The methods the app's routes answer for a path, read from Express's own route table with its
 * own matcher, so a known path with a wrong method gets 405 and `Allow` instead of 404.
 */
export function allowedMethodsOf(app: NestExpressApplication): AllowedMethodsOf {
  const express = app.getHttpAdapter().getInstance() as unknown as { router: { stack: RouteLayer[] } };
  return (request) => {
    const methods = new Set<string>();
    for (const layer of express.router.stack) {
      if (!layer.route || !matches(layer, request.path)) continue;
      const routeMethods = layer.route._methods();
      // Middleware bound to every method (the request logger's catch-all) says nothing of the path.
      if (METHODS.every((method) => routeMethods.includes(method))) continue;
      for (const method of routeMethods) methods.add(method);
    }
    return [...methods].sort();
  };
}

/** Node's parser codes that get a more precise answer than 400. */
const errorOfParserCode: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: ErrorCode.HeadersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: ErrorCode.RequestTimeout,
};

/**
 * Requests Node's HTTP parser refuses (a bad method token, a request line or headers over the
 * limit, broken framing) never reach Express; Node would answer them with a bare status line.
 * They get the envelope here, with a request id, whenever the socket can still take an answer.
 */
export function answerClientErrors(server: Server): void {
  const logger = new Logger('Http');
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const code = errorOfParserCode[err.code ?? ''] ?? ErrorCode.BadRequest;
    const error =
      code === ErrorCode.BadRequest
        ? new AppError(code, 'The request is not valid HTTP.')
        : new AppError(code);
    const requestId = randomUUID();
    const body = JSON.stringify(error.toBody());
    logger.warn({ requestId, code: err.code, status: error.status }, 'Request refused by the HTTP parser');
    socket.end(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/**
 * Content-Security-Policy of the interactive docs pages (Swagger UI, Redoc), served from the
 * service itself: helmet's default without `upgrade-insecure-requests` (which breaks the pages'
 * own scripts on http://localhost), and with workers from blobs (Redoc's search index).
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "frame-ancestors 'self'",
].join(';');

/** Express middleware giving a docs page its policy (mount it on the page's path). */
export function docsPagePolicy(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
  next();
}
