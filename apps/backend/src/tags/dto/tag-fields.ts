import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateBy, ValidateIf, ValidateNested, ValidationArguments } from 'class-validator';
import { TagNamesDto } from './tag-names.dto';

export const ICON_PATTERN_SOURCE = '^[a-z0-9-]+$';
const ICON_PATTERN = new RegExp(ICON_PATTERN_SOURCE);
export const ICON_MAX_LENGTH = 64;

/** `icon`: a slug of lower-case letters, digits and hyphens (at most 64 characters). */
export function IconField(options: { optional?: boolean } = {}): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (value === undefined) return options.optional ? null : 'The icon field is required.';
    if (value === null || value === '') return 'The icon field is required.';
    if (typeof value !== 'string') return 'The icon field must be a string.';
    if (value.length > ICON_MAX_LENGTH)
      return `The icon field must not be greater than ${ICON_MAX_LENGTH} characters.`;
    return ICON_PATTERN.test(value)
      ? null
      : 'The icon field must only contain lower-case letters, digits and hyphens.';
  };
  return applyDecorators(
    ValidateBy({
      name: 'iconField',
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? '',
      },
    }),
    ApiProperty({
      type: 'string',
      pattern: ICON_PATTERN_SOURCE,
      maxLength: ICON_MAX_LENGTH,
      example: 'hiking-boot',
      description: 'An icon slug.',
      ...(options.optional ? { required: false } : {}),
    }),
  );
}

/** `names`: an object `{fr, en?, de?}`, checked field by field (`names.fr`). */
export function NamesField(options: { optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    ...(options.optional ? [ValidateIf((_object: unknown, value: unknown) => value !== undefined)] : []),
    ValidateBy({
      name: 'namesPresent',
      validator: {
        validate: (value: unknown) =>
          (options.optional && value === undefined) ||
          (typeof value === 'object' && value !== null && !Array.isArray(value)),
        defaultMessage: (args?: ValidationArguments) =>
          args?.value === undefined || args?.value === null
            ? 'The names field is required.'
            : 'The names field must be an object with fr, en and de.',
      },
    }),
    ValidateNested(),
    Type(() => TagNamesDto),
    ApiProperty({
      type: () => TagNamesDto,
      ...(options.optional ? { required: false } : {}),
      description: options.optional
        ? 'Absent: unchanged. Sent: replaces the three names (an absent `en` or `de` becomes null).'
        : 'The names; `fr` is required.',
    }),
  );
}
