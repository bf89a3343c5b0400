/** The parts of an OpenAPI 3.1 document the fuzzing kit reads (paths, parameters, bodies, answers). */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  security?: unknown[];
  servers?: { url: string }[];
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface FuzzParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonSchema;
}

/** Media type → schema (undefined when the document gives none). */
export type MediaTypes = Record<string, JsonSchema | undefined>;

export interface FuzzOperation {
  /** `GET /tour/{id}`: how reports and options name the operation. */
  key: string;
  method: string;
  /** The templated path, relative to the server URL. */
  path: string;
  operationId?: string;
  parameters: FuzzParameter[];
  requestBody?: { required: boolean; content: MediaTypes };
  /** Status (`200`, `4XX`, `default`) → the documented media types of its body (none: no body). */
  responses: Record<string, { content?: MediaTypes }>;
  /** An empty security requirement (or none at all): callable without credentials. */
  isPublic: boolean;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a local JSON pointer (`#/components/schemas/Tour`) in the document. */
export function pointerValue(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`Only local references are supported: ${ref}`);
  const parts = ref
    .slice(1)
    .split('/')
    .filter((part, index) => index > 0 || part !== '')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
  let value: unknown = document;
  for (const part of parts) {
    if (!isObject(value) && !Array.isArray(value)) throw new Error(`Unresolvable reference ${ref}`);
    value = (value as Record<string, unknown>)[part];
    if (value === undefined) throw new Error(`Unresolvable reference ${ref}`);
  }
  return value;
}

/** Follows `$ref` (chains included) until a value that is not a reference. */
export function resolveRef<T = Record<string, unknown>>(document: OpenApiDocument, value: unknown): T {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 32) throw new Error(`Reference cycle at ${current.$ref}`);
    current = pointerValue(document, current.$ref);
  }
  return current as T;
}

/** Escapes one JSON-pointer segment. */
export const pointerSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function mediaTypesOf(document: OpenApiDocument, content: unknown): MediaTypes {
  const types: MediaTypes = {};
  if (!isObject(content)) return types;
  for (const [mediaType, media] of Object.entries(content)) {
    const resolved = resolveRef<Record<string, unknown>>(document, media);
    types[mediaType] = isObject(resolved?.schema) ? resolved.schema : undefined;
  }
  return types;
}

/** Every operation of the document, with path-level parameters merged into the operation's. */
export function listOperations(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const item = resolveRef<Record<string, unknown>>(document, rawItem);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const rawOperation = item[method];
      if (!isObject(rawOperation)) continue;
      const byKey = new Map<string, FuzzParameter>();
      const own = Array.isArray(rawOperation.parameters) ? rawOperation.parameters : [];
      for (const rawParameter of [...shared, ...own]) {
        const parameter = resolveRef<Record<string, unknown>>(document, rawParameter);
        const location = parameter.in as ParameterLocation;
        const name = String(parameter.name);
        byKey.set(`${location}:${location === 'header' ? name.toLowerCase() : name}`, {
          name,
          in: location,
          required: location === 'path' || parameter.required === true,
          schema: isObject(parameter.schema) ? parameter.schema : {},
        });
      }
      const body = rawOperation.requestBody
        ? resolveRef<Record<string, unknown>>(document, rawOperation.requestBody)
        : undefined;
      const responses: FuzzOperation['responses'] = {};
      for (const [status, rawResponse] of Object.entries(
        isObject(rawOperation.responses) ? rawOperation.responses : {},
      )) {
        const response = resolveRef<Record<string, unknown>>(document, rawResponse);
        responses[status] = isObject(response.content)
          ? { content: mediaTypesOf(document, response.content) }
          : {};
      }
      const security = Array.isArray(rawOperation.security) ? rawOperation.security : document.security;
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: typeof rawOperation.operationId === 'string' ? rawOperation.operationId : undefined,
        parameters: [...byKey.values()],
        requestBody: body
          ? { required: body.required === true, content: mediaTypesOf(document, body.content) }
          : undefined,
        responses,
        isPublic:
          !security || security.length === 0 || security.some((r) => isObject(r) && !Object.keys(r).length),
      });
    }
  }
  return operations;
}

/** The documented answer for a status: exact (`404`), then its range (`4XX`), then `default`. */
export function documentedResponse(
  operation: FuzzOperation,
  status: number,
): { status: string; content?: MediaTypes } | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default']) {
    const response = operation.responses[key];
    if (response) return { status: key, ...response };
  }
  return undefined;
}
