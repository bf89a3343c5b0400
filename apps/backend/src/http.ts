import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { SwaggerModule } from '@nestjs/swagger';
import { configureHttpApp, docsPagePolicy } from '@rt/platform';
import type { BackendConfig } from './config';
import { buildContractDocument } from './contract/contract-document';
import { ContractService } from './contract/contract.service';

/** Routes outside `/api`: probes, metrics and the signed image paths (docs/decisions.md D-18). */
export const ROUTES_OUTSIDE_API_PREFIX = ['health/live', 'health/ready', 'metrics', 'img/{*path}'];

/**
 * The origins a browser may call the API from: CORS_ORIGINS; when none is set in the local
 * environment, the client app's own (CLIENT_APP_URL's origin), so that a client app on a
 * developer's machine reaches the local backend. Never with credentials: the API's bearer tokens
 * need none (docs/decisions.md D-79).
 */
export function corsOriginsOf(
  config: Pick<BackendConfig, 'APP_ENV' | 'CORS_ORIGINS' | 'CLIENT_APP_URL'>,
): string[] {
  if (config.CORS_ORIGINS.length > 0 || config.APP_ENV !== 'local') return config.CORS_ORIGINS;
  return [new URL(config.CLIENT_APP_URL).origin];
}

export function configureBackendHttp(app: INestApplication, config: BackendConfig): void {
  configureHttpApp(app, {
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: corsOriginsOf(config),
    corsExposedHeaders: ['X-Request-Id', 'Retry-After'],
    globalPrefix: { prefix: 'api', exclude: ROUTES_OUTSIDE_API_PREFIX },
  });
  // API answers carry tokens and personal data: no browser or proxy may keep a copy. Routes that
  // serve public, immutable content (the images under /img) set their own Cache-Control.
  app.use('/api', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  const contract = buildContractDocument(app);
  app.get(ContractService).publish(contract);
  if (config.APP_ENV === 'local') {
    // The interactive page of the contract, local environment only (no raw copies: /api/contract is
    // the one).
    app.use('/api/docs', docsPagePolicy);
    SwaggerModule.setup('api/docs', app, contract, {
      useGlobalPrefix: false,
      raw: false,
      customSiteTitle: 'Road-trip backend API',
    });
  }
}
