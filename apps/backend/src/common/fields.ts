import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { isEmail, ValidateBy, ValidationArguments } from 'class-validator';

/**
 * Composed request-field decorators: one validation rule per field that reports the first
 * problem only, with a readable message ("The email field is required."), plus the matching
 * OpenAPI property. Field names stay snake_case on the wire.
 */
type Check = (value: unknown, field: string) => string | null;

const label = (field: string) => field.replace(/_/g, ' ');

function Rule(name: string, check: Check): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => check(value, args?.property ?? '') === null,
      defaultMessage: (args?: ValidationArguments) => check(args?.value, args?.property ?? '') ?? '',
    },
  });
}

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

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

type DocOptions = Pick<ApiPropertyOptions, 'description' | 'example' | 'format'>;

/** A required, non-empty string of at most `max` (and at least `min`) characters. */
export function TextField(rules: StringRules & DocOptions): PropertyDecorator {
  const { min, max, ...doc } = rules;
  return applyDecorators(
    Rule('textField', (value, field) =>
      isBlank(value) ? `The ${label(field)} field is required.` : checkString(value, field, { min, max }),
    ),
    ApiProperty({ type: 'string', minLength: min ?? 1, maxLength: max, ...doc }),
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

/** A required email address (at most 255 characters). */
export function EmailField(doc: DocOptions = {}): PropertyDecorator {
  return applyDecorators(
    Rule('emailField', (value, field) => {
      if (isBlank(value)) return `The ${label(field)} field is required.`;
      const problem = checkString(value, field, { max: 255 });
      if (problem) return problem;
      return isValidEmail(value as string)
        ? null
        : `The ${label(field)} field must be a valid email address.`;
    }),
    ApiProperty({ type: 'string', format: 'email', maxLength: 255, example: 'ada@example.com', ...doc }),
  );
}

/** Passwords: 12 to 128 characters (decisions.md). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

export function NewPasswordField(doc: DocOptions = {}): PropertyDecorator {
  return TextField({
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
    format: 'password',
    description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
    ...doc,
  });
}

/** One of a fixed set of strings. */
export function EnumField<T extends string>(
  values: readonly T[],
  enumName: string,
  doc: DocOptions = {},
): PropertyDecorator {
  return applyDecorators(
    Rule('enumField', (value, field) => {
      if (isBlank(value)) return `The ${label(field)} field is required.`;
      return (values as readonly unknown[]).includes(value)
        ? null
        : `The ${label(field)} field must be one of: ${values.join(', ')}.`;
    }),
    ApiProperty({ enum: values as unknown as string[], enumName, ...doc }),
  );
}

/**
 * A field that must be sent (full replacement) and, for now, must be null. Used by
 * `profile_picture_id` until image uploads exist.
 */
export function PresentNullField(doc: { description: string }): PropertyDecorator {
  return applyDecorators(
    Rule('presentNullField', (value, field) => {
      if (value === undefined) return `The ${label(field)} field must be present.`;
      return value === null
        ? null
        : `The ${label(field)} field only accepts null until image uploads are available.`;
    }),
    ApiProperty({ type: 'null', description: doc.description }),
  );
}
