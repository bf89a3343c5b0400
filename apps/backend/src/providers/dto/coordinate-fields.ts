import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidationArguments } from 'class-validator';

/** Latitude and longitude: WGS 84 degrees, sent together or not at all. */
export type Axis = 'latitude' | 'longitude';
const RANGE: Record<Axis, number> = { latitude: 90, longitude: 180 };
const OTHER: Record<Axis, Axis> = { latitude: 'longitude', longitude: 'latitude' };

type Body = Record<string, unknown>;

/**
 * Degrees closer to 0 than this are read as 0 (under 0.1 mm on the ground): PostgreSQL's
 * `ll_to_earth` fails with "value out of range: underflow" on a subnormal number (a latitude of
 * -2e-323 answered 500 when the proximity index was computed), and no address is that precise.
 */
export const COORDINATE_RESOLUTION = 1e-9;

const flushToZero = (value: unknown): unknown =>
  typeof value === 'number' && Math.abs(value) < COORDINATE_RESOLUTION ? 0 : value;

/**
 * The problem of one coordinate, or null. `nullable`: null is a value (a body clearing both);
 * the other coordinate must then be null too. A query string arrives as text and is read as a
 * decimal number first (`46.2`, `-7.5`).
 */
export function coordinateProblem(
  axis: Axis,
  value: unknown,
  object: Body,
  options: { nullable: boolean },
): string | null {
  const other = object[OTHER[axis]];
  if (value === undefined) {
    return other === undefined ? null : `The ${axis} field is required when ${OTHER[axis]} is present.`;
  }
  if (value === null) {
    if (!options.nullable) return `The ${axis} field must be a number.`;
    return other === null ? null : `The ${axis} field must be null when ${OTHER[axis]} is not.`;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return `The ${axis} field must be a number.`;
  if (value < -RANGE[axis] || value > RANGE[axis]) {
    return `The ${axis} field must be between -${RANGE[axis]} and ${RANGE[axis]}.`;
  }
  if (other === null && options.nullable)
    return `The ${axis} field must be null when ${OTHER[axis]} is null.`;
  return null;
}

function CoordinateRule(axis: Axis, nullable: boolean): PropertyDecorator {
  const of = (args?: ValidationArguments) =>
    coordinateProblem(axis, args?.value, (args?.object ?? {}) as Body, { nullable });
  return ValidateBy({
    name: `${axis}Pair`,
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) => of(args) === null,
      defaultMessage: (args?: ValidationArguments) => of(args) ?? '',
    },
  });
}

/** A coordinate of a provider body: a JSON number, null clears both; with the other one or not at all. */
export function BodyCoordinateField(axis: Axis): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => flushToZero(value)),
    CoordinateRule(axis, true),
    ApiProperty({
      type: 'number',
      nullable: true,
      required: false,
      minimum: -RANGE[axis],
      maximum: RANGE[axis],
      example: axis === 'latitude' ? 46.2333 : 7.3667,
      description: `WGS 84 degrees. Sent together with \`${OTHER[axis]}\` (both numbers or both null), or neither.`,
    }),
  );
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A coordinate of the proximity search (query string): a decimal, with the other one or not at all. */
export function QueryCoordinateField(axis: Axis): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (value === undefined || value === '') return undefined;
      return typeof value === 'string' && DECIMAL.test(value.trim()) ? flushToZero(Number(value)) : value;
    }),
    CoordinateRule(axis, false),
    ApiPropertyOptional({
      type: 'number',
      minimum: -RANGE[axis],
      maximum: RANGE[axis],
      example: axis === 'latitude' ? 46.2044 : 6.1432,
      description: `WGS 84 degrees of the point to search around; with \`${OTHER[axis]}\` or neither (one alone → 422).`,
    }),
  );
}
