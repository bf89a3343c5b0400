import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { isIsoDateTime, isStoredInstant, STORED_DATE_NOTE, storedInstantMessage } from '@rt/contracts';
import { ValidateBy, ValidationArguments } from 'class-validator';

const label = (field: string) => field.replace(/_/g, ' ');

/**
 * A body field holding a full ISO 8601 date-time with its zone (`2026-11-24T10:00:00Z`), the body
 * twin of `QueryDateTimeField`; the service reads it with `toInstant`. Presence as the composed
 * fields of @rt/contracts: required unless `optional`, null only when `nullable`. A stored instant:
 * from 1900-01-01T00:00:00Z through 2999-12-31 in UTC (STORED_INSTANT_RANGE, docs/decisions.md D-71).
 */
export function DateTimeField(
  options: { optional?: boolean; nullable?: boolean; description?: string } = {},
): PropertyDecorator {
  const check = (value: unknown, field: string): string | null => {
    if (value === undefined) return options.optional ? null : `The ${label(field)} field is required.`;
    if (value === null) return options.nullable ? null : `The ${label(field)} field must not be null.`;
    if (typeof value !== 'string' || !isIsoDateTime(value)) {
      return `The ${label(field)} field must be an ISO 8601 date-time with a zone, e.g. 2026-11-24T10:00:00Z.`;
    }
    return isStoredInstant(new Date(value)) ? null : storedInstantMessage(field);
  };
  return applyDecorators(
    ValidateBy({
      name: 'dateTimeField',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => check(value, args?.property ?? '') === null,
        defaultMessage: (args?: ValidationArguments) => check(args?.value, args?.property ?? '') ?? '',
      },
    }),
    ApiProperty({
      type: 'string',
      format: 'date-time',
      example: '2027-06-30T22:00:00Z',
      description: options.description ? `${options.description} ${STORED_DATE_NOTE}` : STORED_DATE_NOTE,
      ...(options.optional ? { required: false } : {}),
      ...(options.nullable ? { nullable: true } : {}),
    }),
  );
}
