import { ValidateBy, ValidationArguments } from 'class-validator';

/** A field's problem in words ("The email field is required."), or null when the value is fine. */
export type FieldCheck = (value: unknown, field: string) => string | null;

/** `first_name` → `first name`, as messages name fields. */
export const fieldLabel = (field: string): string => field.replace(/_/g, ' ');

/**
 * One validation rule whose message is the check's own, so a field reports its first problem only
 * (the shared base of the body fields and the query fields).
 */
export function CheckRule(name: string, check: FieldCheck): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => check(value, args?.property ?? '') === null,
      defaultMessage: (args?: ValidationArguments) => check(args?.value, args?.property ?? '') ?? '',
    },
  });
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD` (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
