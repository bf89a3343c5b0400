import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ErrorResponseDto } from '@rt/contracts';
import { docsPagePolicy, documentServiceUnavailable, toOpenApi31 } from '@rt/platform';
import type { Request, Response } from 'express';
import { SearchValidationErrorResponseDto } from './validation-error.response';

/** Redoc's standalone bundle, served by the service itself from the `redoc` package (no CDN). */
const REDOC_BUNDLE_PATH = '/redoc/redoc.standalone.js';
const REDOC_BUNDLE_FILE = require.resolve('redoc/bundles/redoc.standalone.js');

/** The OpenAPI 3.1 document of the search service, from the controllers' decorators. */
export function buildOpenApiDocument(
  app: INestApplication,
  version: string,
): ReturnType<typeof SwaggerModule.createDocument> {
  const config = new DocumentBuilder()
    .setTitle('Travel search service')
    .setDescription(
      'Lists and searches travel offers (docs/search-api.md; the rules it follows: docs/decisions.md). Errors use the shared envelope: ' +
        '422 `{message, errors, reason?}` with one message per parameter, naming it ("size must be an integer from 1 to 100."), ' +
        'every other `{message, error}`. An unknown path answers 404 `not_found`, a known path with another method 405 ' +
        '`method_not_allowed` with `Allow`, before any body is read. No route takes a body: one sent anyway answers 400 ' +
        '`malformed_json` (not JSON) or `bad_request` (not what its `Content-Encoding` says), 413 `payload_too_large` or 415 ' +
        '`unsupported_media_type`. A request the HTTP parser cannot read answers 400 `bad_request`, 408 `request_timeout` or ' +
        '431 `request_header_fields_too_large`; a bug 500 `internal_error`.',
    )
    .setVersion(version)
    .addServer('/', 'This service')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorResponseDto, SearchValidationErrorResponseDto],
  });
  // No endpoint needs a token (docs/decisions.md D-46): every operation says so explicitly.
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem)) {
      if (typeof operation === 'object' && operation !== null && 'responses' in operation) {
        operation.security ??= [];
      }
    }
  }
  // The listings read the database; the root, the well-known files and the reindex trigger do not.
  documentServiceUnavailable(document, {
    description:
      '`service_unavailable`: the database cannot be reached right now. Try again after `Retry-After` seconds.',
    errorSchemaRef: '#/components/schemas/ErrorResponseDto',
    appliesTo: (_operation, path) => path === '/travels',
  });
  return toOpenApi31(document);
}

/**
 * `/docs` (Swagger UI), `/redoc` and `/openapi.json`: mounted only when WITH_DOCS is true, by
 * default in a local run (docs/search-api.md). Must run before the app is initialised, so the routes
 * come before the 404 handler.
 */
export function mountApiDocs(app: INestApplication, version: string): void {
  const document = buildOpenApiDocument(app, version);
  for (const page of ['/docs', '/redoc']) app.use(page, docsPagePolicy);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Travel search service',
  });
  const http = app.getHttpAdapter();
  http.get('/redoc', (_request: Request, response: Response) => {
    response
      .type('html')
      .send(
        `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Travel search service</title>` +
          `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
          `<body><redoc spec-url="/openapi.json"></redoc><script src="${REDOC_BUNDLE_PATH}"></script></body></html>`,
      );
  });
  http.get(REDOC_BUNDLE_PATH, (_request: Request, response: Response) => {
    // The package lives under node_modules/.pnpm: a dot folder that `send` ignores by default.
    response.sendFile(REDOC_BUNDLE_FILE, { maxAge: '1d', dotfiles: 'allow' });
  });
}
