import fc from 'fast-check';
import type { FuzzOperation, JsonSchema, OpenApiDocument } from './openapi';
import { resolveRef } from './openapi';
import { ALL_TEXT_PAYLOADS, FORMAT_PAYLOADS } from './payloads';

/** Where a value travels: URLs and headers cannot carry what a JSON body can. */
export type FieldLocation = 'path' | 'query' | 'header' | 'body';

export interface FieldContext {
  operation: FuzzOperation;
  location: FieldLocation;
  /** The field's name: the parameter, or the last property name in the body. */
  name: string;
  /** An item of the array `name` (`activity_ids[3]` → name `activity_ids`, item true). */
  item: boolean;
}

export interface SchemaArbitraryOptions {
  /**
   * Values the test knows to exist (ids of rows it made, hats it holds) for a field; offered
   * besides generated ones, so requests get past "not found" and reach the rules behind it.
   */
  knownValues?: (field: FieldContext) => readonly unknown[] | undefined;
  /** Valid integers stay within [minimum, minimum + this] (a `count` of 100,000 costs seconds). */
  largestValidSpan: number;
  /** Length of the huge strings sent in bodies. */
  hugeStringLength: number;
  /** Length of the long strings sent in URLs and headers (Node refuses more than 16 kB of them). */
  longUrlStringLength: number;
  /** Most items in a valid array. */
  maxArrayItems: number;
  /** Day offsets around today for valid dates, so "in the future" rules get both sides. */
  dayOffsets: { min: number; max: number };
}

export const DEFAULT_SCHEMA_ARBITRARY_OPTIONS: SchemaArbitraryOptions = {
  largestValidSpan: 100,
  hugeStringLength: 100_000,
  longUrlStringLength: 4_000,
  maxArrayItems: 4,
  dayOffsets: { min: -400, max: 800 },
};

const MAX_DEPTH = 6;
const DAY_MS = 86_400_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON types a schema allows (`type` may be one name or a list; absent: inferred, else any). */
export function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type.map(String);
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.required) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

const WRONG_TYPED: Record<string, unknown[]> = {
  string: [0, -1, 1.5, true, false, ['text'], { value: 'text' }],
  integer: ['12', 'abc', 1.5, true, [1], { value: 1 }],
  number: ['1.5', 'abc', true, [1], { value: 1 }],
  boolean: ['true', 'false', 1, 0, 'yes', [true], { value: true }],
  array: ['a,b', 1, true, { 0: 'a' }],
  object: ['text', 1, true, [], [{}]],
};

/** An object whose own key is `__proto__` (a literal would set the prototype instead). */
const protoPollution = (): Record<string, unknown> =>
  JSON.parse('{"__proto__":{"is_super_admin":true,"polluted":true},"constructor":{"prototype":{"x":1}}}');

function nestedObject(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

/** Boolean spellings a query string may use (docs/decisions.md D-9): true|false|1|0|yes|no|on|off. */
const QUERY_BOOLEANS = ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 'TRUE', 'No'];

const FORMAT_BREAKERS: Record<string, string[]> = {
  uuid: [
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    '123e4567-e89b-12d3-a456-4266141740001',
    '123e4567e89b12d3a456426614174000',
    '{123e4567-e89b-12d3-a456-426614174000}',
    ' 123e4567-e89b-42d3-a456-426614174000',
    'zzzzzzzz-zzzz-4zzz-8zzz-zzzzzzzzzzzz',
  ],
  date: [
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '0000-01-01',
    '+275760-09-13',
    '2026-1-1',
    '2026-11-24T10:00:00Z',
    '24.11.2026',
    '99999-01-01',
  ],
  'date-time': [
    '2026-11-24T25:61:00Z',
    '2026-11-24',
    '2026-11-24T10:00:00+25:00',
    'now',
    '275760-09-13T00:00:00.001Z',
    '2026-02-30T10:00:00Z',
    '1732442400',
  ],
  email: [
    'plainaddress',
    '@example.com',
    'user@',
    'a@@example.com',
    `${'a'.repeat(250)}@example.com`,
    'user@example..com',
    '"quoted"@example.com',
  ],
  time: ['24:00', '12:60', '1:5', '12:00:00', '-1:00'],
};
FORMAT_BREAKERS['idn-email'] = FORMAT_BREAKERS.email;

/** A date inside text (`2027-03-01_2027-03-31`): the examples of a date-bearing string. */
export const DATE_IN_TEXT = /\d{4}-\d{2}-\d{2}/;

/**
 * A field that holds a date, found in a schema: its path from the schema's root (property names,
 * `[]` for an array's items), and its kind: a `date` or `date-time` format, or text whose example
 * holds dates (a list of date ranges written as text).
 */
export interface DateFieldPath {
  path: string[];
  kind: 'date' | 'date-time' | 'dated-text';
  /** For `dated-text`: the example whose dates the extremes replace. */
  example?: string;
}

export class SchemaArbitraries {
  private readonly options: SchemaArbitraryOptions;

  constructor(
    private readonly document: OpenApiDocument,
    options: Partial<SchemaArbitraryOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCHEMA_ARBITRARY_OPTIONS, ...options };
  }

  private resolve(schema: unknown): JsonSchema {
    const resolved = resolveRef<JsonSchema>(this.document, schema);
    return isObject(resolved) ? resolved : {};
  }

  /** allOf parts merged into one schema (properties and required lists joined). */
  private flatten(raw: unknown): JsonSchema {
    const schema = this.resolve(raw);
    if (!Array.isArray(schema.allOf)) return schema;
    const { allOf, ...rest } = schema;
    const merged: JsonSchema = { ...rest };
    for (const part of allOf as unknown[]) {
      const flat = this.flatten(part);
      merged.properties = { ...(merged.properties as object), ...(flat.properties as object) };
      merged.required = [...((merged.required as string[]) ?? []), ...((flat.required as string[]) ?? [])];
      for (const [keyword, value] of Object.entries(flat)) {
        if (keyword !== 'properties' && keyword !== 'required' && !(keyword in merged))
          merged[keyword] = value;
      }
    }
    return merged;
  }

  /** Every date field under the schema (through references, allOf, oneOf, objects and arrays). */
  dateFields(raw: unknown, depth = 0): DateFieldPath[] {
    if (depth >= MAX_DEPTH) return [];
    const schema = this.flatten(raw);
    const found: DateFieldPath[] = [];
    const choices = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(choices))
      for (const choice of choices) found.push(...this.dateFields(choice, depth + 1));
    const types = typesOf(schema);
    if (schema.format === 'date' || schema.format === 'date-time') {
      found.push({ path: [], kind: schema.format });
    } else if (types.includes('string') || types.length === 0) {
      const examples = [...(Array.isArray(schema.examples) ? schema.examples : []), schema.example];
      const example = examples.find(
        (value): value is string => typeof value === 'string' && DATE_IN_TEXT.test(value),
      );
      if (example !== undefined) found.push({ path: [], kind: 'dated-text', example });
    }
    if (types.includes('array') && schema.items) {
      for (const field of this.dateFields(schema.items, depth + 1))
        found.push({ ...field, path: ['[]', ...field.path] });
    }
    if (isObject(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        for (const field of this.dateFields(property, depth + 1))
          found.push({ ...field, path: [name, ...field.path] });
      }
    }
    const seen = new Set<string>();
    return found.filter((field) => {
      const key = `${field.path.join('.')}:${field.kind}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Values the schema admits (or nearly: patterns and formats are approximated). */
  valid(raw: unknown, field: FieldContext, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.flatten(raw);
    const generated = this.validOf(schema, field, depth);
    const known = this.options.knownValues?.(field);
    if (!known || known.length === 0) return generated;
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generated });
  }

  private validOf(schema: JsonSchema, field: FieldContext, depth: number): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
    const choices = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(choices) && choices.length > 0) {
      return fc.oneof(...choices.map((choice) => this.valid(choice, field, depth)));
    }
    const types = typesOf(schema);
    if (types.length === 0) {
      return fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: 0, max: 100 }), fc.boolean());
    }
    return fc.oneof(...types.map((type) => this.validOfType(type, schema, field, depth)));
  }

  private validOfType(
    type: string,
    schema: JsonSchema,
    field: FieldContext,
    depth: number,
  ): fc.Arbitrary<unknown> {
    const examples = Array.isArray(schema.examples) ? schema.examples : [];
    const withExamples = (arbitrary: fc.Arbitrary<unknown>) =>
      examples.length > 0
        ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...examples) }, { weight: 2, arbitrary })
        : arbitrary;
    const inUrl = field.location !== 'body';
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return inUrl ? fc.constantFrom(...QUERY_BOOLEANS) : fc.boolean();
      case 'integer':
      case 'number': {
        const { low, high } = this.validBounds(schema, type === 'integer');
        const integers = fc.oneof(fc.constantFrom(low, high), fc.integer({ min: low, max: high }));
        const numbers =
          type === 'number'
            ? fc.oneof(
                integers,
                fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true }).filter((value) => {
                  const above = schema.exclusiveMinimum;
                  const below = schema.exclusiveMaximum;
                  return (
                    (typeof above !== 'number' || value > above) &&
                    (typeof below !== 'number' || value < below)
                  );
                }),
              )
            : integers;
        return withExamples(inUrl ? numbers.map(String) : numbers);
      }
      case 'string':
        return withExamples(this.validString(schema));
      case 'array': {
        const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const max = Math.max(
          min,
          Math.min(
            typeof schema.maxItems === 'number' ? schema.maxItems : Infinity,
            this.options.maxArrayItems,
          ),
        );
        if (depth >= MAX_DEPTH) return fc.constant([]);
        const item = this.valid(schema.items ?? {}, { ...field, item: true }, depth + 1);
        return schema.uniqueItems
          ? fc.uniqueArray(item, {
              minLength: min,
              maxLength: max,
              selector: (value) => JSON.stringify(value),
            })
          : fc.array(item, { minLength: min, maxLength: max });
      }
      case 'object': {
        if (depth >= MAX_DEPTH) return fc.constant({});
        const properties = isObject(schema.properties) ? schema.properties : {};
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, property] of Object.entries(properties)) {
          model[name] = this.valid(property, { ...field, name, item: false }, depth + 1);
        }
        return fc.record(model, { requiredKeys: required.filter((name) => name in model) });
      }
      default:
        return fc.string({ maxLength: 12 });
    }
  }

  private validBounds(schema: JsonSchema, integer: boolean): { low: number; high: number } {
    const step = integer ? 1 : 0;
    let low =
      typeof schema.minimum === 'number'
        ? schema.minimum
        : typeof schema.exclusiveMinimum === 'number'
          ? schema.exclusiveMinimum + step
          : undefined;
    let high =
      typeof schema.maximum === 'number'
        ? schema.maximum
        : typeof schema.exclusiveMaximum === 'number'
          ? schema.exclusiveMaximum - step
          : undefined;
    if (low === undefined) low = high !== undefined ? Math.min(0, high) : 0;
    if (integer) low = Math.ceil(low);
    high = Math.min(high ?? low + this.options.largestValidSpan, low + this.options.largestValidSpan);
    if (integer) high = Math.floor(high);
    return { low, high: Math.max(low, high) };
  }

  private validString(schema: JsonSchema): fc.Arbitrary<unknown> {
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    switch (schema.format) {
      case 'uuid':
        return fc.uuid({ version: 4 });
      case 'date':
        return this.dayOffset().map((date) => date.toISOString().slice(0, 10));
      case 'date-time':
        return fc
          .tuple(this.dayOffset(), fc.integer({ min: 0, max: DAY_MS - 1 }))
          .map(([date, ms]) => new Date(date.getTime() + ms).toISOString());
      case 'email':
      case 'idn-email':
        return fc.oneof(
          { weight: 3, arbitrary: fc.nat(1_000_000).map((n) => `fuzz-${n}@example.com`) },
          {
            weight: 1,
            arbitrary: fc
              .emailAddress()
              .filter((email) => maxLength === undefined || email.length <= maxLength),
          },
        );
      case 'uri':
      case 'url':
        return fc.webUrl();
      case 'binary':
        return fc.constant('');
    }
    if (typeof schema.pattern === 'string') {
      const pattern = safeRegExp(schema.pattern);
      if (pattern) return fc.stringMatching(pattern);
    }
    const readable = Math.max(minLength, Math.min(maxLength ?? 24, minLength + 24));
    const choices: fc.Arbitrary<unknown>[] = [
      fc.string({ minLength, maxLength: readable }),
      fc.string({ unit: 'grapheme', minLength, maxLength: readable }),
    ];
    const words = ['Alps loop', 'Zürich', 'Lac Léman', 'Été 2027'].filter((text) => fits(text, schema));
    if (words.length > 0) choices.push(fc.constantFrom(...words));
    if (maxLength !== undefined && maxLength <= 10_000 && maxLength >= minLength) {
      choices.push(fc.constant('m'.repeat(maxLength)));
    }
    return fc.oneof(...choices);
  }

  private dayOffset(): fc.Arbitrary<Date> {
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const { min, max } = this.options.dayOffsets;
    return fc
      .oneof(fc.integer({ min, max }), fc.constantFrom(0, 1, 30, 365))
      .map((offset) => new Date(today + offset * DAY_MS));
  }

  /**
   * Values the schema should refuse, or that stress what it admits: wrong types, out-of-range
   * numbers, huge and empty strings, hostile text (SQL, traversal, unicode, NUL), broken formats,
   * missing and unknown properties, deep nesting.
   */
  hostile(raw: unknown, field: FieldContext, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.flatten(raw);
    if (depth >= MAX_DEPTH) return fc.constantFrom<unknown>(null, 'deep', 1);
    const choices = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(choices) && choices.length > 0) {
      return fc.oneof(...choices.map((choice) => this.hostile(choice, field, depth)));
    }
    const types = typesOf(schema);
    const wrong = [
      ...new Set(
        (types.length ? types : ['string']).flatMap((type) => WRONG_TYPED[type] ?? WRONG_TYPED.string),
      ),
    ].filter((value) => !admits(types, value));
    if (!types.includes('null')) wrong.push(null);
    const branches: { weight: number; arbitrary: fc.Arbitrary<unknown> }[] = [
      { weight: 2, arbitrary: fc.constantFrom(...wrong.map(clone)).map(clone) },
      { weight: 2, arbitrary: this.hostileText(schema, field) },
    ];
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      const first = String(schema.enum[0]);
      branches.push({
        weight: 3,
        arbitrary: fc.constantFrom('not-a-value', first.toUpperCase(), `${first} `, ` ${first}`, `${first}s`),
      });
    }
    for (const type of types) {
      if (type === 'integer' || type === 'number') {
        branches.push({ weight: 4, arbitrary: this.hostileNumber(schema, type === 'integer') });
      } else if (type === 'boolean') {
        branches.push({
          weight: 2,
          arbitrary: fc.constantFrom<unknown>('maybe', '2', '', 'truee', 'Y', -1, 'null'),
        });
      } else if (type === 'array') {
        branches.push({ weight: 5, arbitrary: this.hostileArray(schema, field, depth) });
      } else if (type === 'object') {
        branches.push({ weight: 6, arbitrary: this.hostileObject(schema, field, depth) });
      } else if (type === 'string') {
        branches.push({ weight: 3, arbitrary: this.hostileString(schema, field) });
      }
    }
    return fc.oneof(...branches);
  }

  /** Text attacks and oddities, long ones sized for where the value travels. */
  private hostileText(schema: JsonSchema, field: FieldContext): fc.Arbitrary<unknown> {
    const long = field.location === 'body' ? this.options.hugeStringLength : this.options.longUrlStringLength;
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ALL_TEXT_PAYLOADS) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('x'.repeat(long), '😀'.repeat(long / 4), 'é'.repeat(long / 2)),
      },
      { weight: 1, arbitrary: fc.constantFrom(...FORMAT_PAYLOADS) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            this.validString(schema),
            fc.constantFrom("' OR 1=1 --", '\u0000', '/../../etc/passwd', '\uD800'),
          )
          .map(([value, suffix]) => `${String(value)}${suffix}`),
      },
    );
  }

  private hostileString(schema: JsonSchema, field: FieldContext): fc.Arbitrary<unknown> {
    const long = field.location === 'body' ? this.options.hugeStringLength : this.options.longUrlStringLength;
    const values: unknown[] = [''];
    if (typeof schema.maxLength === 'number' && schema.maxLength < long) {
      values.push('z'.repeat(schema.maxLength + 1));
    }
    if (typeof schema.minLength === 'number' && schema.minLength > 1) {
      values.push('z'.repeat(schema.minLength - 1));
    }
    if (typeof schema.format === 'string' && FORMAT_BREAKERS[schema.format]) {
      values.push(...FORMAT_BREAKERS[schema.format]);
    }
    if (typeof schema.pattern === 'string') values.push('does not match', '#12345G', '1:2');
    return fc.constantFrom(...values);
  }

  private hostileNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<unknown> {
    const values: unknown[] = [
      -1,
      0,
      2 ** 31,
      2 ** 53 + 2,
      -(2 ** 53),
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      1e-300,
      // Subnormal numbers: some database functions underflow on them.
      Number.MIN_VALUE,
      -2e-323,
    ];
    if (integer) values.push(1.5, 0.1, 7.000001);
    for (const [keyword, delta] of [
      ['minimum', -1],
      ['maximum', 1],
      ['exclusiveMinimum', 0],
      ['exclusiveMaximum', 0],
    ] as const) {
      const bound = schema[keyword];
      if (typeof bound === 'number') values.push(bound + delta, bound + delta / 1000);
    }
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...values) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '12',
          ' 7 ',
          '1e3',
          '0x1F',
          '١٢',
          'NaN',
          'Infinity',
          '-0',
          '1,5',
          '9'.repeat(400),
        ),
      },
      { weight: 1, arbitrary: fc.double() },
    );
  }

  private hostileArray(schema: JsonSchema, field: FieldContext, depth: number): fc.Arbitrary<unknown> {
    const itemField = { ...field, item: true };
    const valid = this.valid(schema.items ?? {}, itemField, depth + 1);
    const hostile = this.hostile(schema.items ?? {}, itemField, depth + 1);
    const branches: fc.Arbitrary<unknown>[] = [
      fc.array(hostile, { minLength: 1, maxLength: 3 }),
      fc.tuple(valid, hostile),
      valid.map((item) => [[item]]),
      valid,
    ];
    if (typeof schema.minItems === 'number' && schema.minItems > 0) branches.push(fc.constant([]));
    if (typeof schema.maxItems === 'number' && schema.maxItems < 5_000) {
      const count = schema.maxItems + 1;
      branches.push(valid.map((item) => Array.from({ length: count }, () => item)));
    }
    if (schema.uniqueItems) branches.push(valid.map((item) => [item, item]));
    return fc.oneof(...branches);
  }

  private hostileObject(schema: JsonSchema, field: FieldContext, depth: number): fc.Arbitrary<unknown> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const validWhole = this.validOfType('object', schema, field, depth) as fc.Arbitrary<
      Record<string, unknown>
    >;
    const branches: { weight: number; arbitrary: fc.Arbitrary<unknown> }[] = [
      { weight: 1, arbitrary: fc.constant({}) },
      {
        weight: 1,
        arbitrary: validWhole.map((value) => ({
          ...value,
          unknown_field: "' OR 1=1 --",
          ...protoPollution(),
        })),
      },
      {
        weight: 1,
        arbitrary: validWhole.map((value) => ({ ...value, [firstKey(properties)]: nestedObject(40) })),
      },
    ];
    const names = Object.keys(properties);
    if (names.length > 0) {
      // One property hostile, the others valid: the refusal must name that field, and nothing be stored.
      branches.push({
        weight: 8,
        arbitrary: fc
          .constantFrom(...names)
          .chain((name) =>
            fc
              .tuple(validWhole, this.hostile(properties[name], { ...field, name, item: false }, depth + 1))
              .map(([value, bad]) => ({ ...value, [name]: bad })),
          ),
      });
      // All properties present, each hostile with some chance.
      branches.push({
        weight: 1,
        arbitrary: fc.record(
          Object.fromEntries(
            names.map((name) => [
              name,
              fc.oneof(
                this.valid(properties[name], { ...field, name, item: false }, depth + 1),
                this.hostile(properties[name], { ...field, name, item: false }, depth + 1),
              ),
            ]),
          ),
        ),
      });
    }
    if (required.length > 0) {
      branches.push({
        weight: 3,
        arbitrary: fc
          .tuple(validWhole, fc.constantFrom(...required))
          .map(([value, missing]) => omit(value, missing)),
      });
    }
    return fc.oneof(...branches);
  }
}

/** Whether a value's JSON type is one the schema's types admit (an integer is a number too). */
function admits(types: string[], value: unknown): boolean {
  const type =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value;
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function firstKey(properties: Record<string, unknown>): string {
  return Object.keys(properties)[0] ?? 'nested';
}

function omit(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/** Generated values are shared constants: hand out copies, so no request mutates another's. */
function clone<T>(value: T): T {
  return typeof value === 'object' && value !== null ? (JSON.parse(JSON.stringify(value)) as T) : value;
}

function fits(text: string, schema: JsonSchema): boolean {
  return (
    (typeof schema.maxLength !== 'number' || text.length <= schema.maxLength) &&
    (typeof schema.minLength !== 'number' || text.length >= schema.minLength)
  );
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}
