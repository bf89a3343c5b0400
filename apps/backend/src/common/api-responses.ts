import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto, ValidationErrorResponseDto } from '@rt/contracts';

/**
 * The error answers of the contract, in one place. Several decorators of one route may describe
 * the same status; they use the same words so that whichever is kept reads right.
 */
export const ApiValidationFailedResponse = (description = VALIDATION_FAILED) =>
  ApiResponse({ status: 422, type: ValidationErrorResponseDto, description });

export const VALIDATION_FAILED =
  'Validation failed: `errors` maps each field (dotted paths for nested ones; `x-viewing-as` for the viewing header) to one message, its first problem.';

export const ApiUnauthenticatedResponse = () =>
  ApiResponse({
    status: 401,
    type: ErrorResponseDto,
    description: '`unauthenticated`: the bearer token is missing, unknown, revoked or expired.',
  });

export const ApiForbiddenResponse = (codes: string[]) =>
  ApiResponse({
    status: 403,
    type: ErrorResponseDto,
    description: `The viewing context does not allow this: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
  });

export const ApiTooManyRequestsResponse = (description: string) =>
  ApiResponse({
    status: 429,
    type: ErrorResponseDto,
    description: `\`too_many_requests\`: ${description}`,
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before trying again.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
  });

export const ApiNoContentResponse = (description: string) => ApiResponse({ status: 204, description });

/** The framing errors of a route with a body: 400, 413 and 415, each described for that body. */
const ApiBodyErrors = (descriptions: { 400: string; 413: string; 415: string }) =>
  applyDecorators(
    ...([400, 413, 415] as const).map((status) =>
      ApiResponse({ status, type: ErrorResponseDto, description: descriptions[status] }),
    ),
  );

/**
 * `malformed_json` or `bad_request` (400), `payload_too_large` (413) and `unsupported_media_type`
 * (415): every route with a JSON body.
 */
export const ApiJsonBodyErrors = () =>
  ApiBodyErrors({
    400: '`malformed_json`: the body is not valid JSON; `bad_request`: it does not match its `Content-Encoding`.',
    413: '`payload_too_large`: the body is too large.',
    415: '`unsupported_media_type`: the body is not `application/json`.',
  });

/**
 * The upload route's framing errors: `bad_request` (400) for a body that is not well-formed
 * multipart, `payload_too_large` (413) for a JSON body over the body limit, and
 * `unsupported_media_type` (415) for a body that is neither multipart/form-data nor JSON.
 */
export const ApiUploadBodyErrors = () =>
  ApiBodyErrors({
    400: '`bad_request`: the multipart body is malformed (no boundary, cut short, no structure).',
    413: '`payload_too_large`: a JSON body over the body limit (a file over its limit → 422 on `image`).',
    415: '`unsupported_media_type`: the body is neither `multipart/form-data` nor JSON.',
  });

/** 404 `not_found`: the resource named by the path (or the viewing context) does not exist. */
export const ApiResourceNotFoundResponse = (description: string) =>
  ApiResponse({ status: 404, type: ErrorResponseDto, description: `\`not_found\`: ${description}` });
