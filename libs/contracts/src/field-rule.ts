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

/**
 * A parameter that takes one value but arrived as several (`size=3&size=4`), as a list
 * (`size[]=3`) or nested (`size[a]=3`): its problem, said in the service's words (`subject`:
 * "The page field", "size"), else null (docs/decisions.md D-74).
 */
export function singleValueProblem(value: unknown, subject: string): string | null {
  if (Array.isArray(value)) {
    return value.length > 1
      ? `${subject} must be given once; it was repeated.`
      : `${subject} must be a single value, not a list.`;
  }
  if (typeof value === 'object' && value !== null)
    return `${subject} must be a single value, not a nested one.`;
  return null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A real calendar date written `YYYY-MM-DD`, years 0001 to 9999 (2026-02-30 is not one, nor
 * 0000-01-01: PostgreSQL has no year 0). Years below 100 are dates too (no `Date.UTC` two-digit
 * shortcut).
 */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The dates a service stores (docs/decisions.md D-71): a body date or date-time the backend
 * writes, and any date it derives from one (a trip's last day), lies from `first` through `last`.
 * Filters (query parameters) take any calendar date.
 */
export const STORED_DATE_RANGE = { first: '1900-01-01', last: '2999-12-31' } as const;

/** The same range as instants: from 1900-01-01T00:00:00Z up to the end of 2999-12-31 in UTC. */
export const STORED_INSTANT_RANGE = {
  first: new Date(`${STORED_DATE_RANGE.first}T00:00:00.000Z`),
  last: new Date(`${STORED_DATE_RANGE.last}T23:59:59.999Z`),
} as const;

/** Whether a calendar date (`YYYY-MM-DD`) lies within STORED_DATE_RANGE (such strings compare as dates). */
export const isStoredDate = (value: string): boolean =>
  isCalendarDate(value) && value >= STORED_DATE_RANGE.first && value <= STORED_DATE_RANGE.last;

/** Whether an instant lies within STORED_INSTANT_RANGE. */
export const isStoredInstant = (value: Date): boolean =>
  value.getTime() >= STORED_INSTANT_RANGE.first.getTime() &&
  value.getTime() <= STORED_INSTANT_RANGE.last.getTime();

/** "The starts on field must be a date from 1900-01-01 to 2999-12-31." */
export const storedDateMessage = (field: string): string =>
  `The ${fieldLabel(field)} field must be a date from ${STORED_DATE_RANGE.first} to ${STORED_DATE_RANGE.last}.`;

/** "The expires at field must be a date-time from 1900-01-01T00:00:00Z to 2999-12-31T23:59:59Z." */
export const storedInstantMessage = (field: string): string =>
  `The ${fieldLabel(field)} field must be a date-time from ${STORED_DATE_RANGE.first}T00:00:00Z to ` +
  `${STORED_DATE_RANGE.last}T23:59:59Z.`;

/** What the OpenAPI description of a stored date or date-time adds. */
export const STORED_DATE_NOTE = `Stored dates run from ${STORED_DATE_RANGE.first} to ${STORED_DATE_RANGE.last}.`;
