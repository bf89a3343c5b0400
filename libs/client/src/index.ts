/**
 * `@rt/client`: typed clients of the road-trip backend and the travel search service, generated
 * from their OpenAPI contracts (docs/client.md). Runs wherever `fetch`, `FormData` and `Blob` do:
 * browsers, Node 20+.
 */
export {
  createBackendClient,
  organizationHat,
  type BackendBody,
  type BackendCallOptions,
  type BackendClient,
  type BackendClientOptions,
  type BackendPaths,
  type BackendQuery,
  type BackendResponse,
  type BackendSchemas,
  type CodesExportQuery,
  type Hat,
  type ImageAnswer,
  type ImageSource,
  type LoginAnswer,
  type LoginInput,
  type SignOutResult,
  type UploadImageOptions,
} from './backend';
export {
  createSearchClient,
  type InfoDensity,
  type SearchClient,
  type SearchClientOptions,
  type SearchResponse,
  type SearchSchemas,
  type TravelListing,
  type TravelRecord,
  type TravelsQuery,
} from './search';
export {
  ApiError,
  ERROR_CODES,
  isApiError,
  VALIDATION_REASONS,
  type ApiErrorBody,
  type ApiErrorCode,
  type ApiErrorOf,
  type CodedErrorBody,
  type ErrorCode,
  type FieldErrors,
  type InvalidContactConsentTokenBody,
  type InvalidEmailChangeTokenBody,
  type InvalidResetTokenBody,
  type UnexpectedErrorBody,
  type ValidationErrorBody,
  type ValidationReason,
} from './errors';
export type { TextStream, TransportOptions } from './core';
export type * as backend from './generated/backend';
export type * as search from './generated/search';
