import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { DynamicModule, RequestMethod } from '@nestjs/common';

const REQUEST_ID_HEADER = 'x-request-id';
/** A client's id is echoed only when it is short and plain, so it cannot forge log lines. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export interface LoggingOptions {
  level: string;
  serviceName: string;
}

/**
 * JSON logs with pino: one line per request, and every line written while serving a request
 * carries its `requestId`. Credentials never reach the log.
 */
export function loggingModule(options: LoggingOptions): DynamicModule {
  return LoggerModule.forRoot({
    // nestjs-pino's default route pattern (`*`) is the legacy syntax path-to-regexp 8 warns about.
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      level: options.level,
      base: { service: options.serviceName },
      genReqId: requestIdOf,
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'requestId' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          '*.password',
          '*.token',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method: string; url: string; headers: Record<string, unknown> }) => ({
          method: req.method,
          url: req.url,
          userAgent: req.headers['user-agent'],
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    },
  });
}
