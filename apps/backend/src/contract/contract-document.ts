import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  OpenAPIObject,
  type OperationObject,
  type ResponsesObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { documentServiceUnavailable, toOpenApi31 } from '@rt/platform';
import { BACKEND_VERSION } from '../version/backend-version';
import { BEARER_SCHEME } from '../access/access.decorators';

const DESCRIPTION = [
  'The road-trip backend. Paths are relative to the server URL (`/api`).',
  '',
  '- Sign in with `POST /login`, then send `Authorization: Bearer <token>`.',
  '- Most signed-in endpoints also need `X-Viewing-As` (the viewing hat): `super-admin`,',
  '  `organization:<organization id>` or `traveller`; each operation says whether it does.',
  '  Checks run in this order: token (401), hat syntax (422 under `x-viewing-as`), hat held',
  '  (403 `hat_not_held`), organization approved (403 `organization_not_approved`), the',
  "  endpoint's hat rule (403 `forbidden`), then the body (422).",
  '  A path id that is not a UUID names no resource: 404 `not_found`, answered once the body and',
  '  the query are valid.',
  '- Errors: 422 `{message, errors, reason?}`, one message per field (its first problem, "The name',
  '  field is required."); any other status `{message, error}` with a stable code.',
  '  An unknown path answers 404 `not_found`, and a known path with another method 405',
  '  `method_not_allowed` with `Allow`, before any body is read. A request the HTTP parser cannot',
  '  read answers 400 `bad_request`, 408 `request_timeout` or 431 `request_header_fields_too_large`.',
  '  Any request may also answer 500 `internal_error` (the request id is in `X-Request-Id`; when the',
  '  service traces requests, the OpenTelemetry trace id is in `X-Trace-Id`), and',
  '  503 `service_unavailable` with `Retry-After` while the database cannot be reached.',
  '- Timestamps are ISO 8601 UTC with `Z`; ids are UUIDs.',
].join('\n');

/**
 * The OpenAPI 3.1 contract, generated from the controllers' decorators (`GET /contract`, and the
 * snapshot in contract/openapi.json). Operations without a security requirement get an explicit
 * empty one, so public operations are marked as such.
 */
export function buildContractDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Road-trip backend')
    .setDescription(DESCRIPTION)
    .setVersion(BACKEND_VERSION)
    .addServer('/api', 'This backend')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: '<token id>|<secret>',
        description:
          'A personal access token from `POST /login`; it expires after an idle period (30 days by default).',
      },
      BEARER_SCHEME,
    )
    .addTag('session', 'Sign in and out, password reset.')
    .addTag('user', 'The signed-in user.')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    ignoreGlobalPrefix: true,
    operationIdFactory: (_controller, method) => method,
  });
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem)) {
      if (typeof operation === 'object' && operation !== null && 'responses' in operation) {
        operation.security ??= [];
        documentUndecodablePath(operation as OperationObject);
      }
    }
  }
  // Every operation reads the database (the bearer token, the throttles, the sign-in itself).
  documentServiceUnavailable(document, {
    description:
      '`service_unavailable`: the database (or, for images, the image storage) cannot be reached ' +
      'right now. Try again after `Retry-After` seconds; a write may in rare cases have been ' +
      'applied (the connection dropped after its commit), so retry writes that are not idempotent with care.',
    errorSchemaRef: '#/components/schemas/ErrorResponseDto',
  });
  return toOpenApi31(document);
}

const UNDECODABLE_PATH = 'a path parameter is not valid percent-encoded UTF-8 (`%FF`, `%ED%A0%80`)';

/**
 * Express refuses a path parameter it cannot decode before any route runs, and Nest answers it
 * 400 `bad_request`: every operation with a path parameter documents that answer.
 */
function documentUndecodablePath(operation: OperationObject): void {
  const hasPathParameter = (operation.parameters ?? []).some(
    (parameter) => 'in' in parameter && parameter.in === 'path',
  );
  if (!hasPathParameter) return;
  const existing = operation.responses['400'];
  if (existing && 'description' in existing) {
    existing.description = `${existing.description} Also \`bad_request\` when ${UNDECODABLE_PATH}.`;
    return;
  }
  const responses: ResponsesObject = {
    ...operation.responses,
    '400': {
      description: `\`bad_request\`: ${UNDECODABLE_PATH}.`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseDto' } } },
    },
  };
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
  ) as ResponsesObject;
}
