import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, isUUID } from 'class-validator';
import { CheckRule as Rule, fieldLabel as label, isCalendarDate, singleValueProblem } from './field-rule';

/**
 * Query-string fields every list shares: repeated-key arrays, ISO dates and date-times, and the
 * bulk result. Each is optional (a query parameter may always be left out), reports one readable
 * message per field, and documents itself in the contract.
 */

// A full ISO 8601 date-time with its zone: `2026-11-24T10:00:00Z`, `…T10:00:00.250+01:00`.
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

export { isCalendarDate, singleValueProblem };

/** An empty query value (`?page=`) counts as absent, as HTML forms send them. */
const absentIfBlank = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** Digits, perhaps signed, perhaps padded with spaces: the text of an integer. */
const INTEGER_TEXT = /^\s*-?\d+\s*$/;

interface QueryIntegerOptions {
  min: number;
  /** Absent: no upper bound. */
  max?: number;
  default?: number;
  description?: string;
}

/**
 * An optional integer query parameter within `min` and `max`: one value (not repeated), written in
 * digits. One rule, so one message, its first problem (docs/decisions.md D-74): "The per page field
 * must be an integer.", "… must be at least 1.", "… must be given once; it was repeated."
 */
export function QueryIntegerField(options: QueryIntegerOptions): PropertyDecorator {
  const { min, max } = options;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      const given = absentIfBlank(value);
      return typeof given === 'string' && INTEGER_TEXT.test(given) ? Number(given) : given;
    }),
    IsOptional(),
    Rule('queryIntegerField', (value, field) => {
      const subject = `The ${label(field)} field`;
      const single = singleValueProblem(value, subject);
      if (single) return single;
      if (typeof value !== 'number' || !Number.isInteger(value)) return `${subject} must be an integer.`;
      if (value < min) return `${subject} must be at least ${min}.`;
      if (max !== undefined && value > max) return `${subject} must not be greater than ${max}.`;
      return null;
    }),
    ApiPropertyOptional({
      type: 'integer',
      minimum: min,
      ...(max !== undefined ? { maximum: max } : {}),
      ...(options.default !== undefined ? { default: options.default } : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
    }),
  );
}

/**
 * An optional text query parameter of at most `max` characters (`search`): one value, not
 * repeated; blank counts as absent. One rule, so one message (docs/decisions.md D-74).
 */
export function QueryTextField(options: { max: number; description?: string }): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => absentIfBlank(value)),
    IsOptional(),
    Rule('queryTextField', (value, field) => {
      const subject = `The ${label(field)} field`;
      const single = singleValueProblem(value, subject);
      if (single) return single;
      if (typeof value !== 'string') return `${subject} must be a string.`;
      return [...value].length > options.max
        ? `${subject} must not be greater than ${options.max} characters.`
        : null;
    }),
    ApiPropertyOptional({ type: 'string', maxLength: options.max, description: options.description }),
  );
}

/** A full ISO 8601 date-time with a zone (`Z` or an offset) on a real calendar date. */
export function isIsoDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  return match !== null && isCalendarDate(match[1]);
}

interface QueryArrayOptions<T extends string> {
  /** The allowed items; absent: any UUID when `uuid`, else any non-empty string. */
  values?: readonly T[];
  enumName?: string;
  /** Items must be UUIDs (`organisation_id[]`, `tag_ids[]`). */
  uuid?: boolean;
  maxItems?: number;
  description?: string;
}

const DEFAULT_MAX_ITEMS = 100;

/**
 * A repeated-key array parameter: `status[]=a&status[]=b` (the extended query parser makes it an
 * array), or one plain `status=a`. The contract names it with its brackets, as clients send it.
 * Empty items are dropped, so `status[]=` counts as absent.
 */
export function QueryArrayField<T extends string>(
  name: string,
  options: QueryArrayOptions<T> = {},
): PropertyDecorator {
  const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
      const kept = items.filter((item) => item !== '');
      return kept.length > 0 ? kept : undefined;
    }),
    IsOptional(),
    Rule('queryArrayField', (value, field) => {
      const items = value as unknown[];
      if (items.length > maxItems)
        return `The ${label(field)} field must not have more than ${maxItems} items.`;
      for (const item of items) {
        if (typeof item !== 'string') return `The ${label(field)} field must be a list of values.`;
        if (options.values && !(options.values as readonly string[]).includes(item)) {
          return `The ${label(field)} field must only hold: ${options.values.join(', ')}.`;
        }
        if (options.uuid && !isUUID(item)) return `The ${label(field)} field must only hold UUIDs.`;
      }
      return null;
    }),
    ApiPropertyOptional({
      name,
      isArray: true,
      maxItems,
      ...(options.values
        ? { enum: options.values as unknown as string[], enumName: options.enumName }
        : { type: String }),
      description:
        options.description ??
        `Repeat the key (\`${name}=a&${name}=b\`); any item matches${options.uuid ? ' (items are UUIDs)' : ''}.`,
    }),
  );
}

/** An optional `YYYY-MM-DD` query parameter, kept as that string (dates have no time zone). */
export function QueryDateField(description?: string): PropertyDecorator {
  return QueryStringOfForm('queryDateField', isCalendarDate, 'must be a date written YYYY-MM-DD.', {
    type: 'string',
    format: 'date',
    example: '2026-11-24',
    description,
  });
}

/** An optional full ISO 8601 date-time with its zone, turned into a `Date` for the service. */
export function QueryDateTimeField(description?: string): PropertyDecorator {
  return QueryStringOfForm(
    'queryDateTimeField',
    isIsoDateTime,
    'must be an ISO 8601 date-time with a zone, e.g. 2026-11-24T10:00:00Z.',
    { type: 'string', format: 'date-time', example: '2026-11-24T10:00:00Z', description },
  );
}

/** An optional single query parameter whose string `isOfForm` accepts; else "The … field <problem>". */
function QueryStringOfForm(
  ruleName: string,
  isOfForm: (value: string) => boolean,
  problem: string,
  doc: ApiPropertyOptions,
): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Rule(ruleName, (value, field) => {
      const single = singleValueProblem(value, `The ${label(field)} field`);
      if (single) return single;
      return typeof value === 'string' && isOfForm(value) ? null : `The ${label(field)} field ${problem}`;
    }),
    ApiPropertyOptional(doc),
  );
}

/** Reads a validated QueryDateTimeField (validation runs on the string; services want instants). */
export const toInstant = (value: string | undefined): Date | undefined =>
  value === undefined ? undefined : new Date(value);

/** One id a bulk change left alone, and why (a stable code such as `already_cancelled`). */
export class BulkSkippedDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ description: 'A stable code saying why this id did not change.', example: 'not_found' })
  reason!: string;
}

/**
 * The answer of a bulk change: HTTP 200 even when some ids are skipped (a partial success).
 * A feature's response class extends it with its typed `updated`.
 */
export interface BulkResult<T> {
  updated: T[];
  skipped: BulkSkippedDto[];
}

export const bulkResult = <T>(updated: T[], skipped: BulkSkippedDto[]): BulkResult<T> => ({
  updated,
  skipped,
});
