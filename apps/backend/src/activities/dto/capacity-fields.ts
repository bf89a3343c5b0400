import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, ValidationArguments } from 'class-validator';

export const MAX_CAPACITY = 2_147_483_647;

/**
 * `capacity`: an integer ≥ 0 (travellers per departure day), null when unknown; never a number
 * together with `unlimited: true` in one body (422 on `capacity`).
 */
export function CapacityField(): PropertyDecorator {
  const problem = (value: unknown, body: Record<string, unknown>): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      return 'The capacity field must be an integer.';
    if (value < 0) return 'The capacity field must be at least 0.';
    if (value > MAX_CAPACITY) return `The capacity field must not be greater than ${MAX_CAPACITY}.`;
    return body.unlimited === true
      ? 'The capacity field must be null when unlimited is true (capacity and unlimited are mutually exclusive).'
      : null;
  };
  return applyDecorators(
    ValidateBy({
      name: 'capacityField',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          problem(value, (args?.object ?? {}) as Record<string, unknown>) === null,
        defaultMessage: (args?: ValidationArguments) =>
          problem(args?.value, (args?.object ?? {}) as Record<string, unknown>) ?? '',
      },
    }),
    ApiProperty({
      type: 'integer',
      minimum: 0,
      maximum: MAX_CAPACITY,
      nullable: true,
      required: false,
      example: 12,
      description:
        'Travellers per departure day; null means unknown. Never a number together with `unlimited: true` (422).',
    }),
  );
}
