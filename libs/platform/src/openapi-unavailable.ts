/** What this transform reads and writes of an OpenAPI document (any version). */
interface ResponseLike {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
interface OperationLike {
  operationId?: string;
  responses?: Record<string, ResponseLike | { $ref: string }>;
}
interface DocumentLike {
  paths?: object;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface ServiceUnavailableAnswer {
  /** Why an operation may answer 503, e.g. which dependency cannot be reached. */
  description: string;
  /** The error envelope's schema, e.g. `#/components/schemas/ErrorResponseDto`. */
  errorSchemaRef: string;
  /** The operations that can meet it (that read or write the database, or S3); default: all. */
  appliesTo?: (operation: OperationLike, path: string, method: string) => boolean;
}

/**
 * Declares `503` with its envelope and `Retry-After` on the operations of `document` that read or
 * write what can be unreachable (the error filter's 503 `service_unavailable`), in one place
 * rather than on every controller. An operation that already describes a 503 of its own (such
 * as `embedding_unavailable`) keeps it, with this description and the header added.
 * Modifies and returns `document`.
 */
export function documentServiceUnavailable<T extends DocumentLike>(
  document: T,
  answer: ServiceUnavailableAnswer,
): T {
  const retryAfter = {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
  };
  for (const [path, pathItem] of Object.entries((document.paths ?? {}) as Record<string, object>)) {
    for (const method of METHODS) {
      const operation = (pathItem as Record<string, OperationLike | undefined>)[method];
      if (!operation?.responses || !(answer.appliesTo?.(operation, path, method) ?? true)) continue;
      const existing = operation.responses['503'];
      const response: ResponseLike =
        existing && !('$ref' in existing)
          ? {
              ...existing,
              description: `${existing.description ?? ''} ${answer.description}`.trim(),
              headers: { ...existing.headers, 'Retry-After': retryAfter },
            }
          : {
              description: answer.description,
              headers: { 'Retry-After': retryAfter },
              content: { 'application/json': { schema: { $ref: answer.errorSchemaRef } } },
            };
      operation.responses = Object.fromEntries(
        Object.entries({ ...operation.responses, '503': response }).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
  return document;
}
