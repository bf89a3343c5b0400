import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Reflector } from '@nestjs/core';
import { createValidationPipe, expressErrorHandler, FieldStyle, HttpExceptionFilter } from '@rt/errors';
import express, { NextFunction, Request, Response } from 'express';
import { activeTraceIds } from '@rt/telemetry';
import helmet from 'helmet';
import type { Server } from 'node:http';
import { Logger } from 'nestjs-pino';
import { parseTrustProxy } from './config';
import {
  allowedMethodsOf,
  answerClientErrors,
  MultipartGuard,
  requireJsonBodies,
  requireKnownRoute,
} from './http-edge';
import { frameworkLinesAtDebug } from './logging';
import { MetricsService } from './metrics';

const TRACE_ID_HEADER = 'X-Trace-Id';

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) is shorter than what a
 * proxy or a client pool keeps an idle upstream connection for (ingress-nginx and most load
 * balancers: 60 s), so the server would close a socket at the moment the other side reuses it:
 * the request meets a reset (a 502 behind a proxy, ECONNRESET for a direct client). Outlasting the
 * proxy leaves closing idle connections to it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** A traced request answers its trace id, so a client reporting a failure can name the trace. */
function answerTraceId(_req: Request, res: Response, next: NextFunction): void {
  const ids = activeTraceIds();
  if (ids) res.setHeader(TRACE_ID_HEADER, ids.traceId);
  next();
}

export interface HttpAppOptions {
  bodyLimitBytes: number;
  trustProxy: string;
  /** `any` echoes every origin and allows credentials (the search service); else an allow-list. */
  corsOrigins: 'any' | string[];
  /** Response headers that browser code may read. */
  corsExposedHeaders: string[];
  globalPrefix?: { prefix: string; exclude: string[] };
  /** How the service's 422 messages name a field (docs/decisions.md D-74); the backend's by default. */
  fieldStyle?: FieldStyle;
}

/** NestFactory options every service is created with: our own body parser, logs buffered until pino is up. */
export const NEST_APP_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/**
 * The HTTP basics every route inherits (docs/architecture.md, "The edge"). Services call this
 * once, right after creating the app with NEST_APP_OPTIONS, in `main.ts` and in tests alike, so
 * both run the same stack.
 */
export function configureHttpApp(nestApp: INestApplication, options: HttpAppOptions): void {
  const app = nestApp as NestExpressApplication;
  app.useLogger(frameworkLinesAtDebug(app.get(Logger)));
  // pino is up: what was buffered goes out now, and later lines carry the time they happened
  // (Nest would hold them until listen(), after start-up work such as the first reindex).
  app.flushLogs();
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node requires the headers' deadline to outlast the keep-alive one, or it cuts reused sockets.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  answerClientErrors(server);
  app.disable('x-powered-by');
  // Express 5 defaults to the simple parser; `status[]=a&status[]=b` must arrive as an array.
  app.set('query parser', 'extended');
  app.set('trust proxy', parseTrustProxy(options.trustProxy));
  app.use(app.get(MetricsService).middleware());
  app.use(answerTraceId);
  app.use(helmet());
  app.enableCors({
    ...(options.corsOrigins === 'any'
      ? { origin: true, credentials: true }
      : { origin: options.corsOrigins }),
    exposedHeaders: [...options.corsExposedHeaders, TRACE_ID_HEADER],
  });
  // The route first: a body sent to an unknown path or with a wrong method is never read (D-74).
  const methodsOf = allowedMethodsOf(app);
  app.use(requireKnownRoute(methodsOf));
  // JSON only: no form parser, so a web page cannot post to the API without a CORS preflight.
  app.use(requireJsonBodies);
  app.use(express.json({ limit: options.bodyLimitBytes }));
  app.use(expressErrorHandler);
  if (options.globalPrefix) {
    app.setGlobalPrefix(options.globalPrefix.prefix, { exclude: options.globalPrefix.exclude });
  }
  app.useGlobalFilters(new HttpExceptionFilter(methodsOf));
  app.useGlobalGuards(new MultipartGuard(app.get(Reflector)));
  app.useGlobalPipes(createValidationPipe({ style: options.fieldStyle }));
}
