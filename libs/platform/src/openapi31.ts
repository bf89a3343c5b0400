type Json = unknown;
type JsonObject = Record<string, unknown>;

const isObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The one place that turns `@nestjs/swagger`'s document into valid OpenAPI 3.1. Even when told
 * 3.1.0 it still emits 3.0 constructs; this rewrites them:
 * - `nullable: true` → `"null"` added to `type` (or `anyOf` with `{ type: "null" }` around a `$ref`
 *   or a composition), and `null` added to an `enum`;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` → the numeric bound itself;
 * - a schema `example` → `examples: [example]` (the 3.1 keyword; parameters keep `example`);
 * - `allOf` around a single `$ref` (3.0's way to give a `$ref` siblings, e.g. a description) →
 *   the `$ref` itself beside its siblings, as 3.1 allows; a redundant `type: "object"` next to
 *   it goes, and a nullable one becomes `anyOf: [{ $ref }, { type: "null" }]`.
 * The input is not modified.
 */
export function toOpenApi31<T extends object>(document: T): T {
  const converted = structuredClone(document) as JsonObject;
  converted.openapi = '3.1.0';
  const components = converted.components;
  if (isObject(components) && isObject(components.schemas)) {
    for (const [name, schema] of Object.entries(components.schemas)) {
      components.schemas[name] = convertSchema(schema);
    }
  }
  walkOperations(converted);
  return converted as T;
}

function walkOperations(document: JsonObject): void {
  const paths = document.paths;
  if (!isObject(paths)) return;
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue;
    for (const operation of Object.values(pathItem)) {
      if (!isObject(operation)) continue;
      for (const parameter of asArray(operation.parameters)) {
        if (isObject(parameter) && parameter.schema) parameter.schema = convertSchema(parameter.schema);
      }
      convertContent(isObject(operation.requestBody) ? operation.requestBody.content : undefined);
      if (isObject(operation.responses)) {
        for (const response of Object.values(operation.responses)) {
          if (isObject(response)) convertContent(response.content);
        }
      }
    }
  }
}

function convertContent(content: Json): void {
  if (!isObject(content)) return;
  for (const media of Object.values(content)) {
    if (isObject(media) && media.schema) media.schema = convertSchema(media.schema);
  }
}

const asArray = (value: Json): Json[] => (Array.isArray(value) ? value : []);

const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else'];

export function convertSchema(input: Json): Json {
  if (!isObject(input)) return input;
  let schema: JsonObject = { ...input };

  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) {
      schema[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, convertSchema(v)]));
    }
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(schema[key])) schema[key] = (schema[key] as Json[]).map(convertSchema);
  }
  for (const key of SCHEMA_SINGLES) {
    if (isObject(schema[key])) schema[key] = convertSchema(schema[key]);
  }

  convertExclusiveBound(schema, 'exclusiveMinimum', 'minimum');
  convertExclusiveBound(schema, 'exclusiveMaximum', 'maximum');

  if ('example' in schema) {
    if (!('examples' in schema)) schema.examples = [schema.example];
    delete schema.example;
  }

  schema = unwrapSingleRef(schema);

  if ('nullable' in schema) {
    const nullable = schema.nullable === true;
    delete schema.nullable;
    if (nullable) schema = withNull(schema);
  }
  return schema;
}

/** `{ allOf: [{ $ref }], …siblings }` → `{ $ref, …siblings }` (siblings of `$ref` are valid in 3.1). */
function unwrapSingleRef(schema: JsonObject): JsonObject {
  const allOf = schema.allOf;
  if (!Array.isArray(allOf) || allOf.length !== 1) return schema;
  const [member] = allOf;
  if (!isObject(member) || typeof member.$ref !== 'string' || Object.keys(member).length !== 1) return schema;
  if ('$ref' in schema) return schema;
  const { allOf: _allOf, ...siblings } = schema;
  // nestjs/swagger adds `type: "object"` beside the allOf of an object; the $ref says it already.
  if (siblings.type === 'object') delete siblings.type;
  return { $ref: member.$ref, ...siblings };
}

function convertExclusiveBound(schema: JsonObject, exclusiveKey: string, boundKey: string): void {
  const exclusive = schema[exclusiveKey];
  if (typeof exclusive !== 'boolean') return;
  if (exclusive && typeof schema[boundKey] === 'number') {
    schema[exclusiveKey] = schema[boundKey];
    delete schema[boundKey];
  } else {
    delete schema[exclusiveKey];
  }
}

const COMPOSITIONS = ['$ref', 'allOf', 'anyOf', 'oneOf'];

function withNull(schema: JsonObject): JsonObject {
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
  // With a $ref or a composition, "null" in `type` would not help: the composition still refuses
  // null. Those are wrapped below.
  const composed = COMPOSITIONS.some((key) => key in schema);
  if (!composed && typeof schema.type === 'string') {
    return { ...schema, type: [schema.type, 'null'] };
  }
  if (!composed && Array.isArray(schema.type)) {
    return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  }
  // A $ref or a composition: in 3.1 siblings of $ref are allowed, but wrapping keeps it explicit.
  const { description, title, default: defaultValue, ...rest } = schema;
  const annotations: JsonObject = {};
  if (description !== undefined) annotations.description = description;
  if (title !== undefined) annotations.title = title;
  if (defaultValue !== undefined) annotations.default = defaultValue;
  return { ...annotations, anyOf: [rest, { type: 'null' }] };
}
