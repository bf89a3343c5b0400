import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createValidationPipe, expressErrorHandler, HttpExceptionFilter } from '@rt/errors';
import express from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { parseTrustProxy } from './config';
import { MetricsService } from './metrics';

export interface HttpAppOptions {
  bodyLimitBytes: number;
  trustProxy: string;
  /** `any` echoes every origin and allows credentials (the search service); else an allow-list. */
  corsOrigins: 'any' | string[];
  securityHeaders: boolean;
  globalPrefix?: { prefix: string; exclude: string[] };
}

/** NestFactory options every service is created with: our own body parser, logs buffered until pino is up. */
export const NEST_APP_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/**
 * The HTTP basics every route inherits. Services call this once, right after creating the app
 * with NEST_APP_OPTIONS, in `main.ts` and in tests alike, so both run the same stack.
 */
export function configureHttpApp(nestApp: INestApplication, options: HttpAppOptions): void {
  const app = nestApp as NestExpressApplication;
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // Express 5 defaults to the simple parser; `status[]=a&status[]=b` must arrive as an array.
  app.set('query parser', 'extended');
  app.set('trust proxy', parseTrustProxy(options.trustProxy));
  app.use(app.get(MetricsService).middleware());
  if (options.securityHeaders) app.use(helmet());
  app.enableCors(
    options.corsOrigins === 'any'
      ? { origin: true, credentials: true }
      : { origin: options.corsOrigins, exposedHeaders: ['X-Request-Id', 'Retry-After'] },
  );
  app.use(express.json({ limit: options.bodyLimitBytes }));
  app.use(express.urlencoded({ extended: true, limit: options.bodyLimitBytes }));
  app.use(expressErrorHandler);
  if (options.globalPrefix) {
    app.setGlobalPrefix(options.globalPrefix.prefix, { exclude: options.globalPrefix.exclude });
  }
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
}
