import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import { configureHttpApp } from '@rt/platform';
import type { BackendConfig } from './config';
import { buildContractDocument } from './contract/contract-document';
import { ContractService } from './contract/contract.service';

const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'self'",
].join(';');

/** Routes outside `/api`: probes, metrics and the signed image paths (decisions.md). */
export const ROUTES_OUTSIDE_API_PREFIX = ['health/live', 'health/ready', 'metrics', 'img/{*path}'];

export function configureBackendHttp(app: INestApplication, config: BackendConfig): void {
  configureHttpApp(app, {
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    securityHeaders: true,
    globalPrefix: { prefix: 'api', exclude: ROUTES_OUTSIDE_API_PREFIX },
  });
  const contract = buildContractDocument(app);
  app.get(ContractService).publish(contract);
  if (config.APP_ENV === 'local') {
    // The interactive page of the contract, local environment only (no raw copies: /api/contract is
    // the one). Helmet's default policy asks browsers to upgrade requests to https, which breaks
    // the page's own scripts on http://localhost: the page gets the same policy without that.
    app.use('/api/docs', (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Content-Security-Policy', DOCS_CSP);
      next();
    });
    SwaggerModule.setup('api/docs', app, contract, {
      useGlobalPrefix: false,
      raw: false,
      customSiteTitle: 'Road-trip backend API',
    });
  }
}
