import { ArgumentMetadata, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { AppError, FieldErrors } from './app-error';
import { FieldStyle, NAMED_FIELD_STYLE } from './field-style';
import { findUnsafeInput } from './unsafe-input';

/** class-validator's own message for a nested field that is no object ("nested property x must be …"). */
const NESTED_VALIDATION = 'nestedValidation';

/**
 * Flattens class-validator's error tree into the per-field map of docs/decisions.md D-4, with dotted paths
 * for nested fields and array items (`steps.0.time`, `ids.3`). Each field keeps one message, its
 * first problem (D-74): a field's own rule speaks before class-validator's generic nested message,
 * and a field refused as a whole says nothing of its parts.
 */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const error of errors) {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    if (Object.hasOwn(fieldErrors, path)) continue;
    const constraints = Object.entries(error.constraints ?? {});
    const first = constraints.find(([name]) => name !== NESTED_VALIDATION) ?? constraints.find(() => true);
    if (first) {
      fieldErrors[path] = [first[1]];
      continue;
    }
    if (error.children?.length) {
      for (const [childPath, messages] of Object.entries(toFieldErrors(error.children, path))) {
        if (!Object.hasOwn(fieldErrors, childPath)) fieldErrors[childPath] = messages;
      }
    }
  }
  return fieldErrors;
}

/**
 * A request DTO with checks that its field decorators cannot key: one message per item of a list
 * (`ids.3`), as the envelope names nested fields. Once every field decorator has passed, the pipe
 * calls `itemErrors()` and refuses what it answers with the same 422 envelope; the list's own
 * checks (its presence, its length) stay on the field, so they come first.
 */
export interface ChecksItems {
  itemErrors(): FieldErrors;
}

/**
 * Nest's validation pipe behind one screen that every body, query and path parameter passes
 * first (findUnsafeInput): the one place where NUL characters, unpaired surrogates and deep
 * nesting are refused with a 422 naming the field.
 */
class ScreenedValidationPipe extends ValidationPipe {
  constructor(
    options: ValidationPipeOptions,
    private readonly style: FieldStyle,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const problems = findUnsafeInput(value, metadata.data ?? '', this.style);
      if (problems) throw AppError.validation(problems);
    }
    const transformed: unknown = await super.transform(value, metadata);
    // The class's own method, whatever the body holds.
    const itemErrors = (metadata.metatype?.prototype as Partial<ChecksItems> | undefined)?.itemErrors;
    if (metadata.type !== 'custom' && typeof itemErrors === 'function') {
      AppError.throwIfInvalid(itemErrors.call(transformed));
    }
    return transformed;
  }
}

export interface ValidationPipeSettings extends ValidationPipeOptions {
  /** How the service's messages name a field (docs/decisions.md D-74); the backend's by default. */
  style?: FieldStyle;
}

/**
 * The global pipe: unsafe input refused, unknown fields dropped (not refused), values transformed,
 * 422 envelope with one message per field (each field stops at its first problem).
 */
export function createValidationPipe(options: ValidationPipeSettings = {}): ValidationPipe {
  const { style = NAMED_FIELD_STYLE, ...pipeOptions } = options;
  return new ScreenedValidationPipe(
    {
      whitelist: true,
      transform: true,
      forbidUnknownValues: false,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => AppError.validation(toFieldErrors(errors)),
      ...pipeOptions,
    },
    style,
  );
}
