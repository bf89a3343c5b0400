import type { INestApplication } from '@nestjs/common';
import { WIRE_NAME_STYLE } from '@rt/errors';
import { configureHttpApp } from '@rt/platform';
import type { BaseEnv } from '@rt/platform';
import { mountApiDocs } from './docs/api-docs';
import type { ServiceSettings } from './root/service.settings';

/**
 * The search service has no path prefix and is open to every origin (docs/decisions.md D-46); its
 * messages name a parameter as clients send it ("size must be …", D-74).
 */
export function configureSearchHttp(app: INestApplication, config: BaseEnv & ServiceSettings): void {
  configureHttpApp(app, {
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: 'any',
    corsExposedHeaders: ['X-Request-Id', 'X-Search-Fallback'],
    fieldStyle: WIRE_NAME_STYLE,
  });
  // WITH_DOCS, by default on in a local run only (docsEnabled: config.ts).
  if (config.docsEnabled) mountApiDocs(app, config.VERSION_TAG ?? '0.1.0');
}
