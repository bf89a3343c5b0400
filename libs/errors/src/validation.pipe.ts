import { ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { AppError, FieldErrors } from './app-error';

/**
 * Flattens class-validator's error tree into the per-field map of decisions.md, with dotted paths
 * for nested fields and array items (`steps.0.time`, `ids.3`).
 */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const error of errors) {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    if (error.constraints) {
      fieldErrors[path] = [...(fieldErrors[path] ?? []), ...Object.values(error.constraints)];
    }
    if (error.children?.length) {
      for (const [childPath, messages] of Object.entries(toFieldErrors(error.children, path))) {
        fieldErrors[childPath] = [...(fieldErrors[childPath] ?? []), ...messages];
      }
    }
  }
  return fieldErrors;
}

/** The global pipe: unknown fields dropped (not refused), values transformed, 422 envelope. */
export function createValidationPipe(options: ValidationPipeOptions = {}): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => AppError.validation(toFieldErrors(errors)),
    ...options,
  });
}
