import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { isEmail, isUUID } from 'class-validator';
import {
  CheckRule,
  FieldCheck,
  fieldLabel as label,
  isCalendarDate,
  isStoredDate,
  STORED_DATE_NOTE,
  storedDateMessage,
} from './field-rule';

export {
  isStoredDate,
  isStoredInstant,
  STORED_DATE_NOTE,
  STORED_DATE_RANGE,
  STORED_INSTANT_RANGE,
  storedDateMessage,
  storedInstantMessage,
} from './field-rule';

/**
 * Composed request-body field decorators: one validation rule per field that reports the first
 * problem only, with a readable message ("The email field is required."), plus the matching
 * OpenAPI property. Field names stay snake_case on the wire.
 *
 * Every field is required and non-null unless its options say otherwise:
 * - `optional: true`: the field may be left out (`undefined` passes; the contract drops it from
 *   `required`);
 * - `nullable: true`: the field may be `null` (the contract says so).
 * A field that is sent must otherwise satisfy its rule. A required field answers "is required"
 * to `undefined`, `null` and `''` alike; an optional or nullable one names the exact problem.
 */
/** Whether a field may be left out and whether it may be null. Both default to false. */
export interface Presence {
  optional?: boolean;
  nullable?: boolean;
}

type DocOptions = Pick<ApiPropertyOptions, 'description' | 'example' | 'format'>;

/** The options every field takes: its presence and its documentation. */
export type FieldOptions = Presence & DocOptions;

/** Marks a value as accepted without further checks (left out when optional, null when nullable). */
const ACCEPTED = Symbol('accepted');

/**
 * The presence part of every rule: ACCEPTED, a message, or null when the value is there and
 * the field's own check should run.
 */
function checkPresence(value: unknown, field: string, presence: Presence): typeof ACCEPTED | string | null {
  const optionalOrNullable = presence.optional === true || presence.nullable === true;
  if (value === undefined) {
    return presence.optional ? ACCEPTED : `The ${label(field)} field is required.`;
  }
  if (value === null) {
    if (presence.nullable) return ACCEPTED;
    return presence.optional
      ? `The ${label(field)} field must not be null.`
      : `The ${label(field)} field is required.`;
  }
  if (value === '') {
    return optionalOrNullable
      ? `The ${label(field)} field must not be empty.`
      : `The ${label(field)} field is required.`;
  }
  return null;
}

/** A rule that handles presence first, then runs `check` on a value that is there. */
function FieldRule(name: string, presence: Presence, check: FieldCheck): PropertyDecorator {
  return CheckRule(name, (value, field) => {
    const problem = checkPresence(value, field, presence);
    if (problem === ACCEPTED) return null;
    return problem ?? check(value, field);
  });
}

/** Splits a field's options into presence, documentation and the contract's presence keywords. */
function splitOptions<T extends Presence>(options: T): { presence: Presence; doc: Omit<T, keyof Presence> } {
  const { optional, nullable, ...doc } = options;
  return { presence: { optional, nullable }, doc };
}

/** `required: false` and `nullable: true` only where they apply, so plain fields stay as they were. */
function presenceDoc(presence: Presence): { required?: boolean; nullable?: boolean } {
  return {
    ...(presence.optional ? { required: false } : {}),
    ...(presence.nullable ? { nullable: true } : {}),
  };
}

interface StringRules {
  min?: number;
  max: number;
}

function checkString(value: unknown, field: string, rules: StringRules): string | null {
  if (typeof value !== 'string') return `The ${label(field)} field must be a string.`;
  // Length in characters (code points), as users count them.
  const length = [...value].length;
  if (rules.min !== undefined && length < rules.min) {
    return `The ${label(field)} field must be at least ${rules.min} characters.`;
  }
  if (length > rules.max)
    return `The ${label(field)} field must not be greater than ${rules.max} characters.`;
  return null;
}

/** A non-empty string of at most `max` (and at least `min`) characters. */
export function TextField(options: StringRules & FieldOptions): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  const { min, max, ...rest } = doc;
  return applyDecorators(
    FieldRule('textField', presence, (value, field) => checkString(value, field, { min, max })),
    ApiProperty({ type: 'string', minLength: min ?? 1, maxLength: max, ...rest, ...presenceDoc(presence) }),
  );
}

/** validator's isEmail throws (URIError) on some malformed input, e.g. an unpaired surrogate. */
function isValidEmail(value: string): boolean {
  try {
    return isEmail(value);
  } catch {
    return false;
  }
}

/**
 * Spaces, C0 and C1 controls (CR and LF among them), DEL, the Unicode line and paragraph separators,
 * and the double quote of a quoted local part (`"c\r\nBcc: x@y"@example.com`): an address we store
 * and write into mail headers holds none of them (docs/decisions.md D-70).
 */
const notInAPlainAddress = (code: number): boolean =>
  code <= 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || code === 0x22;

/** Whether an address is plain: no quoted local part, no space or control character. */
export function isPlainEmailAddress(value: string): boolean {
  for (const char of value) if (notInAPlainAddress(char.codePointAt(0)!)) return false;
  return true;
}

/**
 * An email address (at most 255 characters), plain: no quoted local part, no space or control
 * character (isPlainEmailAddress). Every request field that takes an email uses it.
 */
export function EmailField(options: FieldOptions = {}): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  return applyDecorators(
    FieldRule('emailField', presence, (value, field) => {
      const problem = checkString(value, field, { max: 255 });
      if (problem) return problem;
      if (!isPlainEmailAddress(value as string)) {
        return `The ${label(field)} field must be a plain address: no quotes, spaces or control characters.`;
      }
      return isValidEmail(value as string)
        ? null
        : `The ${label(field)} field must be a valid email address.`;
    }),
    ApiProperty({
      type: 'string',
      // Internationalised addresses (RFC 6531: `rené@bücher.de`) are addresses too; JSON Schema's
      // `email` is ASCII only.
      format: 'idn-email',
      maxLength: 255,
      example: 'ada@example.com',
      ...doc,
      ...presenceDoc(presence),
    }),
  );
}

/** Passwords: 12 to 128 characters (docs/decisions.md D-21). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** A password being chosen: 12 to 128 characters, documented as `format: password`. */
export function NewPasswordField(options: FieldOptions = {}): PropertyDecorator {
  return TextField({
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
    format: 'password',
    description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
    ...options,
  });
}

/** One of a fixed set of strings; `enumName` names the schema in the contract. */
export function EnumField<T extends string>(
  values: readonly T[],
  enumName: string,
  options: FieldOptions = {},
): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  return applyDecorators(
    FieldRule('enumField', presence, (value, field) =>
      (values as readonly unknown[]).includes(value)
        ? null
        : `The ${label(field)} field must be one of: ${values.join(', ')}.`,
    ),
    ApiProperty({ enum: values as unknown as string[], enumName, ...doc, ...presenceDoc(presence) }),
  );
}

/** A UUID (any version, any case), e.g. the id of another resource. */
export function UuidField(options: FieldOptions = {}): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  return applyDecorators(
    FieldRule('uuidField', presence, (value, field) =>
      typeof value === 'string' && isUUID(value) ? null : `The ${label(field)} field must be a valid UUID.`,
    ),
    ApiProperty({ type: 'string', format: 'uuid', ...doc, ...presenceDoc(presence) }),
  );
}

interface NumberRange {
  min: number;
  max: number;
}

/**
 * A JSON integer between `min` and `max` inclusive (both required: pick the range the column
 * holds, e.g. at most 2147483647 for `integer`). Strings such as "5" are refused: bodies are JSON.
 */
export function IntegerField(options: NumberRange & FieldOptions): PropertyDecorator {
  return RangedNumberField('integerField', 'integer', Number.isSafeInteger, options);
}

/**
 * A finite JSON number between `min` and `max` inclusive (decimals allowed: coordinates).
 * Strings such as "46.2" are refused: bodies are JSON.
 */
export function NumberField(options: NumberRange & FieldOptions): PropertyDecorator {
  return RangedNumberField('numberField', 'number', Number.isFinite, options);
}

/** A JSON number of one kind between `min` and `max` inclusive: IntegerField and NumberField. */
function RangedNumberField(
  ruleName: string,
  type: 'integer' | 'number',
  isOfKind: (value: number) => boolean,
  options: NumberRange & FieldOptions,
): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  const { min, max, ...rest } = doc;
  const kind = type === 'integer' ? 'an integer' : 'a number';
  return applyDecorators(
    FieldRule(ruleName, presence, (value, field) => {
      if (typeof value !== 'number' || !isOfKind(value)) return `The ${label(field)} field must be ${kind}.`;
      if (value < min) return `The ${label(field)} field must be at least ${min}.`;
      if (value > max) return `The ${label(field)} field must not be greater than ${max}.`;
      return null;
    }),
    ApiProperty({ type, minimum: min, maximum: max, ...rest, ...presenceDoc(presence) }),
  );
}

/** A JSON boolean (`true` or `false`; strings such as "true" are refused: bodies are JSON). */
export function BooleanField(options: FieldOptions = {}): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  return applyDecorators(
    FieldRule('booleanField', presence, (value, field) =>
      typeof value === 'boolean' ? null : `The ${label(field)} field must be true or false.`,
    ),
    ApiProperty({ type: 'boolean', ...doc, ...presenceDoc(presence) }),
  );
}

/** `HH:MM` on a 24-hour clock, 00:00 to 23:59. */
export const TIME_PATTERN_SOURCE = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const TIME_PATTERN = new RegExp(TIME_PATTERN_SOURCE);

/** A time of day written `HH:MM` (24-hour clock, no seconds, no zone): `09:30`. */
export function TimeField(options: FieldOptions = {}): PropertyDecorator {
  return PatternField(
    'timeField',
    TIME_PATTERN,
    '09:30',
    'must be a time written HH:MM (00:00 to 23:59).',
    options,
  );
}

/** A string that `pattern` matches, documented with the pattern and `example`; else "The … field <problem>". */
function PatternField(
  ruleName: string,
  pattern: RegExp,
  example: string,
  problem: string,
  options: FieldOptions,
): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  return applyDecorators(
    FieldRule(ruleName, presence, (value, field) =>
      typeof value === 'string' && pattern.test(value) ? null : `The ${label(field)} field ${problem}`,
    ),
    ApiProperty({ type: 'string', pattern: pattern.source, example, ...doc, ...presenceDoc(presence) }),
  );
}

/**
 * A calendar date written `YYYY-MM-DD` that the service stores, kept as that string (dates have no
 * time zone): within STORED_DATE_RANGE, 1900-01-01 to 2999-12-31 (docs/decisions.md D-71), so
 * that no stored or derived date overflows. Filters use `QueryDateField`, which takes any date.
 */
export function DateField(options: FieldOptions = {}): PropertyDecorator {
  const { presence, doc } = splitOptions(options);
  return applyDecorators(
    FieldRule('dateField', presence, (value, field) => {
      if (typeof value !== 'string' || !isCalendarDate(value)) {
        return `The ${label(field)} field must be a date written YYYY-MM-DD.`;
      }
      return isStoredDate(value) ? null : storedDateMessage(field);
    }),
    ApiProperty({
      type: 'string',
      format: 'date',
      example: '2026-11-24',
      ...doc,
      description: doc.description ? `${doc.description} ${STORED_DATE_NOTE}` : STORED_DATE_NOTE,
      ...presenceDoc(presence),
    }),
  );
}

/** `#` and six hex digits, either case. */
export const COLOR_PATTERN_SOURCE = '^#[0-9A-Fa-f]{6}$';
const COLOR_PATTERN = new RegExp(COLOR_PATTERN_SOURCE);

/** A color written `#RRGGBB` in hex: `#1A2B3C`. */
export function ColorField(options: FieldOptions = {}): PropertyDecorator {
  return PatternField(
    'colorField',
    COLOR_PATTERN,
    '#1A2B3C',
    'must be a color written #RRGGBB, e.g. #1A2B3C.',
    options,
  );
}

/**
 * A field that must be sent (full replacement) and, for now, must be null. Used by
 * `profile_picture_id` until image uploads exist.
 */
export function PresentNullField(doc: { description: string }): PropertyDecorator {
  return applyDecorators(
    CheckRule('presentNullField', (value, field) => {
      if (value === undefined) return `The ${label(field)} field must be present.`;
      return value === null
        ? null
        : `The ${label(field)} field only accepts null until image uploads are available.`;
    }),
    ApiProperty({ type: 'null', description: doc.description }),
  );
}
