import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, ValidationArguments } from 'class-validator';
import { COMMISSION_TYPES } from './organization.entity';

/**
 * The commission pair of `POST /organizations` and `PATCH /organizations/{id}`: `commission` (a
 * JSON number, at least 0, at most 2 decimals; at most 100 for `percent`, 99999999.99 for
 * `fixed`, the most numeric(10,2) holds) and `commission_type`. Both or neither: one alone is
 * refused on the missing one. Each field reports its first problem only.
 */
export const MAX_PERCENT_COMMISSION = 100;
export const MAX_FIXED_COMMISSION = 99999999.99;

type CommissionBody = { commission?: unknown; commission_type?: unknown };

/** Whether `value` has at most two decimals, as numeric(10,2) stores it without rounding. */
export const hasAtMostTwoDecimals = (value: number): boolean => Number(value.toFixed(2)) === value;

function commissionProblem(value: unknown, body: CommissionBody): string | null {
  if (value === undefined) {
    return body.commission_type === undefined
      ? null
      : 'The commission field is required when commission type is present.';
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'The commission field must be a number.';
  if (value < 0) return 'The commission field must be at least 0.';
  if (!hasAtMostTwoDecimals(value)) return 'The commission field must have at most 2 decimal places.';
  if (body.commission_type === 'percent' && value > MAX_PERCENT_COMMISSION) {
    return `The commission field must not be greater than ${MAX_PERCENT_COMMISSION} when the commission type is percent.`;
  }
  if (value > MAX_FIXED_COMMISSION) {
    return `The commission field must not be greater than ${MAX_FIXED_COMMISSION}.`;
  }
  return null;
}

function commissionTypeProblem(value: unknown, body: CommissionBody): string | null {
  if (value === undefined) {
    return body.commission === undefined
      ? null
      : 'The commission type field is required when commission is present.';
  }
  return (COMMISSION_TYPES as readonly unknown[]).includes(value)
    ? null
    : `The commission type field must be one of: ${COMMISSION_TYPES.join(', ')}.`;
}

function PairRule(name: string, problem: (value: unknown, body: CommissionBody) => string | null) {
  const of = (args?: ValidationArguments) => problem(args?.value, (args?.object ?? {}) as CommissionBody);
  return ValidateBy({
    name,
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) => of(args) === null,
      defaultMessage: (args?: ValidationArguments) => of(args) ?? '',
    },
  });
}

/** `commission`: sent with `commission_type` or not at all. A number on input, a string in resources. */
export const CommissionField = () =>
  applyDecorators(
    PairRule('commissionField', commissionProblem),
    ApiProperty({
      type: 'number',
      required: false,
      minimum: 0,
      maximum: MAX_FIXED_COMMISSION,
      example: 12.5,
      description:
        'At least 0, at most 2 decimals; at most 100 when `commission_type` is `percent`. ' +
        'Sent together with `commission_type`, or neither (one alone → 422 on the missing one).',
    }),
  );

export const CommissionTypeField = () =>
  applyDecorators(
    PairRule('commissionTypeField', commissionTypeProblem),
    ApiProperty({
      enum: COMMISSION_TYPES,
      enumName: 'CommissionType',
      required: false,
      description: 'Sent together with `commission`, or neither.',
    }),
  );
