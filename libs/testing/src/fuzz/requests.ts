import fc from 'fast-check';
import type { FuzzOperation, FuzzParameter, JsonSchema } from './openapi';
import {
  DATE_EXTREMES,
  DATE_TIME_EXTREMES,
  hasLoneSurrogate,
  isHeaderSafe,
  RAW_QUERY_ENCODINGS,
} from './payloads';
import { DATE_IN_TEXT, DateFieldPath, FieldContext, SchemaArbitraries } from './schema-arbitraries';

/** A query value written into the URL exactly as given (bad escapes, raw bytes). */
export class RawQueryValue {
  constructor(readonly raw: string) {}
  toJSON(): string {
    return `<raw ${this.raw}>`;
  }
}

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  content: string | Uint8Array;
}

export type FuzzBody =
  | { kind: 'json'; contentType: string; value: unknown }
  | { kind: 'raw'; contentType?: string; contentEncoding?: string; text: string | Uint8Array }
  | {
      kind: 'multipart';
      contentType: string;
      boundary: string;
      parts: MultipartPart[];
      /** `closed`: well formed; `truncated`: cut before the last boundary; `garbled`: no structure. */
      ending: 'closed' | 'truncated' | 'garbled';
    };

/** One generated request, before it becomes bytes (`toWire`). */
export interface FuzzRequest {
  operation: string;
  /** What this request tries: `valid`, `hostile query page`, `malformed JSON` … */
  variant: string;
  pathParams: Record<string, unknown>;
  query: [string, unknown][];
  headers: Record<string, string | string[]>;
  body?: FuzzBody;
  /** `default`: the credentials the test gives; `none` and `malformed`: an anonymous or broken token. */
  auth: 'default' | 'none' | 'malformed';
  /** A seeded number the test may use to pick among its identities. */
  identity: number;
}

export interface RequestArbitraryOptions {
  /** Sample files for `format: binary` fields (a valid image…): the kit adds broken ones. */
  sampleFiles: { content: Uint8Array; filename: string; contentType: string }[];
  /** A body just over this many bytes is sent now and then (expect 413). */
  bodyLimitBytes?: number;
  /** A file just over this many bytes is uploaded now and then. */
  fileLimitBytes?: number;
}

const JSON_TYPE = /^application\/(.+\+)?json$/i;

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/json',
  'image/png',
];

const NOT_JSON = [
  '{',
  '{"a":',
  "{'single': 'quotes'}",
  'name=x&email=y',
  '<?xml version="1.0"?><a/>',
  'null',
  'undefined',
  '"just a string"',
  '42',
  '[1,2',
  '{"a":1}}',
  '{"a": NaN}',
  '{"a": 1e999}',
  '\uFEFF{}',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"__proto__": {"is_super_admin": true}}',
];

const ACCEPTS = [undefined, 'application/json', '*/*', 'text/html', 'application/xml', 'text/csv'];

/** Query keys that no operation documents: prototype pollution, deep nesting, sparse arrays. */
const UNKNOWN_QUERY: [string, unknown][] = [
  ['__proto__[is_super_admin]', 'true'],
  ['constructor[prototype][polluted]', '1'],
  ['a[b][c][d][e][f][g][h]', 'deep'],
  ['x'.repeat(200), 'long key'],
  ['page[999]', '1'],
  ['', 'no key'],
];

const MULTIPART_FIELD_NAMES = [
  '',
  'IMAGE',
  'images',
  'file',
  'image[]',
  'ïmage',
  '../image',
  'image"; x="y',
  'n'.repeat(300),
];
const MULTIPART_FILENAMES = [
  '../../etc/passwd',
  'x.php.jpg',
  '',
  '😀.png',
  'a'.repeat(1_000) + '.png',
  'x .png',
  'CON',
];
const MULTIPART_PART_TYPES = [
  undefined,
  'image/png',
  'image/jpeg',
  'text/html',
  'application/x-php',
  'a/b/c',
];

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

/**
 * The requests of one operation: valid-ish ones (values the schemas admit), and ones where a
 * single part is hostile: a path, query or header parameter, the body (or one of its fields),
 * its encoding or content type, repeated, missing or unknown parameters, the credentials.
 */
export function requestArbitrary(
  operation: FuzzOperation,
  schemas: SchemaArbitraries,
  options: RequestArbitraryOptions = { sampleFiles: [] },
): fc.Arbitrary<FuzzRequest> {
  const byLocation = (location: string) => operation.parameters.filter((p) => p.in === location);
  const pathParams = byLocation('path');
  const queryParams = byLocation('query');
  const headerParams = byLocation('header');
  const field = (parameter: FuzzParameter): FieldContext => ({
    operation,
    location: parameter.in === 'cookie' ? 'header' : parameter.in,
    name: parameter.name,
    item: false,
  });
  const valid = (parameter: FuzzParameter) => schemas.valid(parameter.schema, field(parameter));
  const hostile = (parameter: FuzzParameter) =>
    schemas
      .hostile(parameter.schema, field(parameter))
      // A path parameter cannot be empty: `/tour/` is another route, not this one with a bad id.
      .filter((value) => parameter.in !== 'path' || textOf(value) !== '');

  const json = jsonMediaType(operation);
  const multipart = operation.requestBody?.content['multipart/form-data'];
  const bodySchema = json ? (operation.requestBody?.content[json] ?? {}) : undefined;
  const bodyField: FieldContext = { operation, location: 'body', name: '', item: false };
  const validBody: fc.Arbitrary<FuzzBody | undefined> =
    json && bodySchema
      ? schemas.valid(bodySchema, bodyField).map((value) => ({ kind: 'json', contentType: json, value }))
      : multipart
        ? validMultipart(multipart, schemas, operation, options)
        : fc.constant(undefined);

  // Optional parameters: about four present at a time, so that a valid-ish request with many
  // of them (15 on a search) still has a fair chance to pass every rule.
  const absentWeight = Math.max(1, Math.round(queryParams.length / 4) - 1);
  const optional = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: absentWeight, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
  const base = fc.record({
    pathParams: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, valid(p)]))),
    query: fc
      .tuple(
        ...queryParams.map((p) =>
          (p.required ? valid(p) : optional(valid(p))).map((value) => [p.name, value] as [string, unknown]),
        ),
      )
      .map((pairs) => pairs.filter(([, value]) => value !== undefined)),
    headers: fc
      .tuple(
        fc.constantFrom(...ACCEPTS),
        ...headerParams.map((p) =>
          (p.required ? valid(p) : fc.option(valid(p), { nil: undefined, freq: 2 })).map(
            (value) => [p.name, value] as [string, unknown],
          ),
        ),
      )
      .map(([accept, ...pairs]) => {
        const headers: Record<string, string | string[]> = accept ? { Accept: accept } : {};
        for (const [name, value] of pairs) if (value !== undefined) headers[name] = headerText(value);
        return headers;
      }),
    body: validBody,
    identity: fc.nat(9_999),
  });
  type Base = typeof base extends fc.Arbitrary<infer T> ? T : never;
  const request = (variant: string, change: (base: Base) => Partial<FuzzRequest> = () => ({})) =>
    base.map((b): FuzzRequest => ({
      operation: operation.key,
      variant,
      auth: 'default',
      ...b,
      ...change(b),
    }));
  const withValue = <T>(
    arbitrary: fc.Arbitrary<T>,
    variant: string,
    change: (b: Base, value: T) => Partial<FuzzRequest>,
  ) =>
    fc.tuple(base, arbitrary).map(([b, value]): FuzzRequest => ({
      operation: operation.key,
      variant,
      auth: 'default',
      ...b,
      ...change(b, value),
    }));

  const groups: { weight: number; arbitrary: fc.Arbitrary<FuzzRequest> }[] = [weighted(5, request('valid'))];

  if (pathParams.length > 0) {
    groups.push(
      weighted(
        3,
        fc.oneof(
          ...pathParams.map((p) =>
            withValue(hostile(p), `hostile path ${p.name}`, (b, value) => ({
              pathParams: { ...b.pathParams, [p.name]: value },
            })),
          ),
        ),
      ),
    );
  }

  if (queryParams.length > 0) {
    const replace = (pairs: [string, unknown][], name: string, ...values: unknown[]) => [
      ...pairs.filter(([key]) => key !== name),
      ...values.map((value) => [name, value] as [string, unknown]),
    ];
    const perParameter = queryParams.flatMap((p) => [
      withValue(hostile(p), `hostile query ${p.name}`, (b, value) => ({
        query: replace(b.query, p.name, value),
      })),
      withValue(
        fc.tuple(valid(p), fc.oneof(valid(p), hostile(p))),
        `repeated query ${p.name}`,
        (b, [one, two]) => ({
          query: replace(b.query, p.name, one, two),
        }),
      ),
      withValue(fc.constantFrom(...RAW_QUERY_ENCODINGS), `bad encoding in query ${p.name}`, (b, raw) => ({
        query: replace(b.query, p.name, new RawQueryValue(raw)),
      })),
    ]);
    const required = queryParams.filter((p) => p.required);
    groups.push(weighted(5, fc.oneof(...perParameter)));
    groups.push(
      weighted(
        1,
        withValue(fc.subarray(UNKNOWN_QUERY, { minLength: 1 }), 'unknown query parameters', (b, extra) => ({
          query: [...b.query, ...extra],
        })),
      ),
    );
    if (required.length > 0) {
      groups.push(
        weighted(
          1,
          fc.oneof(
            ...required.map((p) =>
              request(`missing query ${p.name}`, (b) => ({ query: replace(b.query, p.name) })),
            ),
          ),
        ),
      );
    }
  } else {
    groups.push(
      weighted(
        1,
        withValue(fc.subarray(UNKNOWN_QUERY, { minLength: 1 }), 'unknown query parameters', (_b, extra) => ({
          query: extra,
        })),
      ),
    );
  }

  if (headerParams.length > 0) {
    const without = (headers: Record<string, string | string[]>, name: string) =>
      Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name.toLowerCase()));
    groups.push(
      weighted(
        3,
        fc.oneof(
          ...headerParams.flatMap((p) => [
            withValue(hostile(p), `hostile header ${p.name}`, (b, value) => ({
              headers: { ...without(b.headers, p.name), [p.name]: headerText(value) },
            })),
            withValue(fc.tuple(valid(p), hostile(p)), `repeated header ${p.name}`, (b, [one, two]) => ({
              headers: { ...without(b.headers, p.name), [p.name]: [headerText(one), headerText(two)] },
            })),
            request(`missing header ${p.name}`, (b) => ({ headers: without(b.headers, p.name) })),
          ]),
        ),
      ),
    );
  }

  if (json && bodySchema) {
    groups.push(
      weighted(
        10,
        withValue(schemas.hostile(bodySchema, bodyField), 'hostile body', (_b, value) => ({
          body: { kind: 'json', contentType: json, value },
        })),
      ),
    );
    groups.push(weighted(4, jsonFormatAttacks(base, operation, options)));
  }
  if (multipart) {
    groups.push(weighted(10, multipartAttacks(base, operation, multipart, schemas, options)));
  }

  if (!operation.isPublic) {
    groups.push(
      weighted(
        1,
        fc.oneof(
          request('no credentials', () => ({ auth: 'none' })),
          request('malformed credentials', () => ({ auth: 'malformed' })),
        ),
      ),
    );
  }
  return fc.oneof(...groups);
}

/** The values a date field gets: each extreme, in the field's own form. */
function extremesOf(field: DateFieldPath): string[] {
  if (field.kind === 'date') return DATE_EXTREMES;
  if (field.kind === 'date-time') return DATE_TIME_EXTREMES;
  const example = field.example ?? '';
  const every = new RegExp(DATE_IN_TEXT.source, 'g');
  // Every date of the example replaced, then only its first one (a range whose start is extreme).
  return DATE_EXTREMES.flatMap((extreme) => [
    example.replace(every, extreme),
    example.replace(DATE_IN_TEXT, extreme),
  ]);
}

/** `value` with `extreme` at `path` (objects made as needed, `[]` an array of that one item). */
function withValueAt(value: unknown, path: string[], extreme: unknown): unknown {
  if (path.length === 0) return extreme;
  const [head, ...rest] = path;
  if (head === '[]') return [withValueAt(Array.isArray(value) ? value[0] : undefined, rest, extreme)];
  const object =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  return { ...object, [head]: withValueAt(object[head], rest, extreme) };
}

/**
 * Deterministic requests that give every date field of the operation (a query parameter or a JSON
 * body property of format `date` or `date-time`, or text whose example holds dates) each of the
 * DATE_EXTREMES in turn, the rest of the request valid: a new date field is covered without a
 * change here. Each request's other values are sampled with their own seed from `seed`.
 */
export function dateExtremeRequests(
  operation: FuzzOperation,
  schemas: SchemaArbitraries,
  options: RequestArbitraryOptions,
  seed: number,
): FuzzRequest[] {
  const validRequests = requestArbitrary(operation, schemas, options).filter(
    (request) => request.variant === 'valid',
  );
  const json = jsonMediaType(operation);
  const bodySchema = json ? operation.requestBody?.content[json] : undefined;
  const targets: {
    where: string;
    field: DateFieldPath;
    apply: (r: FuzzRequest, v: string) => FuzzRequest;
  }[] = [];
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    for (const field of schemas.dateFields(parameter.schema)) {
      targets.push({
        where: `query ${parameter.name}`,
        field,
        apply: (request, value) => ({
          ...request,
          query: [
            ...request.query.filter(([name]) => name !== parameter.name),
            [parameter.name, withValueAt(undefined, field.path, value)],
          ],
        }),
      });
    }
  }
  if (json && bodySchema) {
    for (const field of schemas.dateFields(bodySchema)) {
      targets.push({
        where: `body ${field.path.join('.')}`,
        field,
        apply: (request, value) => ({
          ...request,
          body: {
            kind: 'json',
            contentType: json,
            value: withValueAt(request.body?.kind === 'json' ? request.body.value : {}, field.path, value),
          },
        }),
      });
    }
  }
  const requests: FuzzRequest[] = [];
  let index = 0;
  for (const { where, field, apply } of targets) {
    for (const value of extremesOf(field)) {
      const [base] = fc.sample(validRequests, { seed: (seed + 7919 * ++index) | 0, numRuns: 1 });
      requests.push({ ...apply(base, value), variant: `date extreme ${where} ${JSON.stringify(value)}` });
    }
  }
  return requests;
}

/** The operation's JSON media type, if its body is JSON. */
function jsonMediaType(operation: FuzzOperation): string | undefined {
  return Object.keys(operation.requestBody?.content ?? {}).find((type) => JSON_TYPE.test(type));
}

type BaseRequest = Omit<FuzzRequest, 'operation' | 'variant' | 'auth'>;

/** A JSON body's framing broken: not JSON, the wrong type, no body, a bad encoding, too large. */
function jsonFormatAttacks(
  base: fc.Arbitrary<BaseRequest>,
  operation: FuzzOperation,
  options: RequestArbitraryOptions,
): fc.Arbitrary<FuzzRequest> {
  const make = (variant: string, body: FuzzBody | undefined) =>
    base.map((b): FuzzRequest => ({ ...b, operation: operation.key, variant, auth: 'default', body }));
  const validJson = (b: BaseRequest) => JSON.stringify(b.body?.kind === 'json' ? b.body.value : {});
  const attacks: fc.Arbitrary<FuzzRequest>[] = [
    fc.tuple(base, fc.constantFrom(...NOT_JSON)).map(([b, text]) => ({
      ...b,
      operation: operation.key,
      variant: 'body not JSON',
      auth: 'default' as const,
      body: { kind: 'raw' as const, contentType: 'application/json', text },
    })),
    fc.tuple(base, fc.constantFrom(...WRONG_CONTENT_TYPES)).map(([b, contentType]) => ({
      ...b,
      operation: operation.key,
      variant: `content type ${contentType}`,
      auth: 'default' as const,
      body: { kind: 'raw' as const, contentType, text: validJson(b) },
    })),
    base.map((b) => ({
      ...b,
      operation: operation.key,
      variant: 'JSON without a content type',
      auth: 'default' as const,
      body: { kind: 'raw' as const, text: validJson(b) },
    })),
    fc.tuple(base, fc.constantFrom('gzip', 'br', 'deflate', 'compress')).map(([b, encoding]) => ({
      ...b,
      operation: operation.key,
      variant: `Content-Encoding ${encoding} on a plain body`,
      auth: 'default' as const,
      body: {
        kind: 'raw' as const,
        contentType: 'application/json',
        contentEncoding: encoding,
        text: validJson(b),
      },
    })),
    make('no body', undefined),
    make('empty body', { kind: 'raw', contentType: 'application/json', text: '' }),
    base.map((b) => {
      const text = validJson(b);
      // The same key twice: parsers keep the last, so the second value must be validated too.
      const duplicated = text.length > 2 ? `{"${firstJsonKey(b)}":"x",${text.slice(1)}` : text;
      return {
        ...b,
        operation: operation.key,
        variant: 'duplicate JSON keys',
        auth: 'default' as const,
        body: { kind: 'raw' as const, contentType: 'application/json', text: duplicated },
      };
    }),
  ];
  if (options.bodyLimitBytes) {
    const size = options.bodyLimitBytes + 1024;
    attacks.push(
      make('body over the size limit', {
        kind: 'raw',
        contentType: 'application/json',
        text: `{"padding":"${'p'.repeat(size)}"}`,
      }),
    );
  }
  return fc.oneof(...attacks);
}

function firstJsonKey(b: BaseRequest): string {
  const value = b.body?.kind === 'json' ? b.body.value : undefined;
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (Object.keys(value)[0] ?? 'name')
    : 'name';
}

const BOUNDARY = '----rt-fuzz-boundary-7MA4YWxkTrZu0gW';

function validMultipart(
  schema: JsonSchema,
  schemas: SchemaArbitraries,
  operation: FuzzOperation,
  options: RequestArbitraryOptions,
): fc.Arbitrary<FuzzBody> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties).map(([name, property]) => {
    const part: fc.Arbitrary<MultipartPart> =
      property.format === 'binary'
        ? sampleFile(options).map((file) => ({ name, ...file }))
        : schemas
            .valid(property, { operation, location: 'body', name, item: false })
            .map((value) => ({ name, content: textOf(value) }));
    return required.has(name) ? part : fc.option(part, { nil: undefined });
  });
  return fc.tuple(...parts).map((list) => ({
    kind: 'multipart',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    boundary: BOUNDARY,
    parts: list.filter((part): part is MultipartPart => part !== undefined),
    ending: 'closed',
  }));
}

function sampleFile(options: RequestArbitraryOptions): fc.Arbitrary<Omit<MultipartPart, 'name'>> {
  const garbage = fc.uint8Array({ minLength: 1, maxLength: 2_048 }).map((content) => ({
    filename: 'random.bin',
    contentType: 'application/octet-stream',
    content,
  }));
  if (options.sampleFiles.length === 0) return garbage;
  return fc.constantFrom(...options.sampleFiles);
}

/** Uploads broken every way: field names, file names, part types, contents, framing, content type. */
function multipartAttacks(
  base: fc.Arbitrary<BaseRequest>,
  operation: FuzzOperation,
  schema: JsonSchema,
  schemas: SchemaArbitraries,
  options: RequestArbitraryOptions,
): fc.Arbitrary<FuzzRequest> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const fileField = Object.keys(properties).find((name) => properties[name].format === 'binary') ?? 'file';
  const sample = sampleFile(options);
  const contents: fc.Arbitrary<string | Uint8Array>[] = [
    fc.constant(''),
    fc.uint8Array({ minLength: 1, maxLength: 4_096 }),
    fc.constantFrom('<?php system($_GET["c"]); ?>', '<html><script>alert(1)</script></html>', 'GIF89a'),
    sample.chain((file) =>
      fc
        .integer({ min: 1, max: Math.max(1, file.content.length - 1) })
        .map((cut) => toBytes(file.content).slice(0, cut)),
    ),
  ];
  if (options.fileLimitBytes) {
    const size = options.fileLimitBytes + 1;
    contents.push(
      sample.map((file) => concatBytes(toBytes(file.content), new Uint8Array(size - file.content.length))),
    );
  }
  const build = (variant: string, change: fc.Arbitrary<Partial<Extract<FuzzBody, { kind: 'multipart' }>>>) =>
    fc.tuple(base, change, sample).map(([b, body, file]): FuzzRequest => {
      const original =
        b.body?.kind === 'multipart'
          ? b.body
          : {
              kind: 'multipart' as const,
              contentType: `multipart/form-data; boundary=${BOUNDARY}`,
              boundary: BOUNDARY,
              parts: [{ name: fileField, ...file }],
              ending: 'closed' as const,
            };
      return {
        ...b,
        operation: operation.key,
        variant,
        auth: 'default',
        body: { ...original, ...body },
      };
    });
  const fileWith = (change: Partial<MultipartPart>) =>
    sample.map((file) => ({ parts: [{ name: fileField, ...file, ...change }] }));
  const textField = (name: string) =>
    schemas.hostile({ type: 'string' }, { operation, location: 'body', name, item: false }).map(textOf);
  return fc.oneof(
    fc
      .constantFrom(...MULTIPART_FIELD_NAMES)
      .chain((name) =>
        build(`multipart field name ${JSON.stringify(name.slice(0, 20))}`, fileWith({ name })),
      ),
    fc
      .constantFrom(...MULTIPART_FILENAMES)
      .chain((filename) => build('multipart file name', fileWith({ filename }))),
    fc
      .constantFrom(...MULTIPART_PART_TYPES)
      .chain((contentType) => build('multipart part type', fileWith({ contentType }))),
    fc.oneof(...contents).chain((content) => build('multipart file content', fileWith({ content }))),
    build(
      'two files',
      fc.tuple(sample, sample).map(([one, two]) => ({
        parts: [
          { name: fileField, ...one },
          { name: fileField, ...two },
        ],
      })),
    ),
    build('no parts', fc.constant({ parts: [] })),
    build(
      'file with extra text fields',
      fc.tuple(sample, fc.integer({ min: 1, max: 14 }), textField('note')).map(([file, count, text]) => ({
        parts: [
          { name: fileField, ...file },
          ...Array.from({ length: count }, (_, i) => ({ name: `field${i}`, content: text })),
        ],
      })),
    ),
    build('file sent as a text field', fc.constant({ parts: [{ name: fileField, content: 'not a file' }] })),
    build('multipart cut before its end', fc.constant({ ending: 'truncated' as const })),
    build('multipart without structure', fc.constant({ ending: 'garbled' as const })),
    build(
      'multipart with the wrong boundary',
      fc
        .constantFrom(
          'multipart/form-data; boundary=another-boundary',
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/mixed; boundary=' + BOUNDARY,
        )
        .map((contentType) => ({ contentType })),
    ),
    fc
      .tuple(
        base,
        sample,
        fc.constantFrom('application/json', 'application/octet-stream', 'text/plain', 'image/png'),
      )
      .map(([b, file, contentType]): FuzzRequest => ({
        ...b,
        operation: operation.key,
        variant: `file as a ${contentType} body`,
        auth: 'default',
        body: {
          kind: 'raw',
          contentType,
          text:
            contentType === 'application/json' ? JSON.stringify({ [fileField]: 'aGVsbG8=' }) : file.content,
        },
      })),
  );
}

/** A parameter value as text (arrays joined, objects as JSON). */
export function textOf(value: unknown): string {
  if (value instanceof RawQueryValue) return value.raw;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object')
    return Array.isArray(value) ? value.map(textOf).join(',') : JSON.stringify(value);
  return String(value);
}

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A header value the HTTP client can send: text outside Latin-1 travels as its UTF-8 bytes (as a
 * raw client would send it), and characters no header may hold (NUL, CR, LF) are dropped.
 */
export function headerText(value: unknown): string {
  const text = textOf(value);
  if (isHeaderSafe(text)) return text;
  const bytes = Buffer.from(text.replace(LONE_SURROGATES, '\uFFFD'), 'utf8').toString('latin1');
  return bytes.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

/** Percent-encodes text for a URL; an unpaired surrogate travels as its WTF-8 bytes. */
export function encodeUrlText(text: string): string {
  if (!hasLoneSurrogate(text)) return encodeURIComponent(text);
  let encoded = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      encoded += encodeURIComponent(char);
    }
  }
  return encoded;
}

const SAFE_KEY = /^[A-Za-z0-9_\-.[\]]*$/;

/** The query string of the pairs, keys repeated for arrays, brackets for objects (`a[b]=c`). */
export function serializeQuery(pairs: [string, unknown][]): string {
  const out: string[] = [];
  const key = (name: string) => (SAFE_KEY.test(name) ? name : encodeUrlText(name));
  const add = (name: string, value: unknown) => {
    if (value === undefined) return;
    if (value instanceof RawQueryValue) out.push(`${key(name)}=${value.raw}`);
    else if (value === null) out.push(key(name));
    else if (Array.isArray(value)) for (const item of value) add(name, item);
    else if (typeof value === 'object') {
      for (const [child, item] of Object.entries(value)) add(`${name}[${child}]`, item);
    } else out.push(`${key(name)}=${encodeUrlText(String(value))}`);
  };
  for (const [name, value] of pairs) add(name, value);
  return out.join('&');
}

/** The path with its parameters encoded (dots too, so `..` stays a value and never moves up). */
export function fillPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeUrlText(textOf(values[name])).replace(/\./g, '%2E'),
  );
}

const toBytes = (content: string | Uint8Array): Uint8Array =>
  typeof content === 'string' ? Buffer.from(content, 'utf8') : content;

function concatBytes(...chunks: Uint8Array[]): Uint8Array {
  return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
}

/** A multipart/form-data body as bytes; `ending` may cut it short or drop its structure. */
export function encodeMultipart(
  parts: MultipartPart[],
  boundary: string,
  ending: 'closed' | 'truncated' | 'garbled' = 'closed',
): Buffer {
  if (ending === 'garbled') return Buffer.from(`not multipart at all\r\n--${boundary.slice(0, 5)}\r\n`);
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(toBytes(part.content)), Buffer.from('\r\n'));
  }
  if (ending === 'closed') chunks.push(Buffer.from(`--${boundary}--\r\n`));
  else chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cut"\r\n\r\npartial`));
  return Buffer.concat(chunks);
}

export interface WireRequest {
  method: string;
  /** Path and query, encoded, with the server's base path. */
  url: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

/** The request as it travels (credentials are added by the runner). */
export function toWire(
  request: FuzzRequest,
  method: string,
  template: string,
  basePath: string,
): WireRequest {
  const query = serializeQuery(request.query);
  const url = `${basePath}${fillPath(template, request.pathParams)}${query ? `?${query}` : ''}`;
  const headers: Record<string, string | string[]> = { ...request.headers };
  let body: Buffer | undefined;
  const payload = request.body;
  if (payload?.kind === 'json') {
    headers['Content-Type'] = payload.contentType;
    body = Buffer.from(JSON.stringify(payload.value) ?? 'null', 'utf8');
  } else if (payload?.kind === 'raw') {
    if (payload.contentType !== undefined) headers['Content-Type'] = payload.contentType;
    if (payload.contentEncoding) headers['Content-Encoding'] = payload.contentEncoding;
    body = Buffer.from(toBytes(payload.text));
  } else if (payload?.kind === 'multipart') {
    headers['Content-Type'] = payload.contentType;
    body = encodeMultipart(payload.parts, payload.boundary, payload.ending);
  }
  return { method, url, headers, body };
}
