import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, ValidationArguments } from 'class-validator';

/**
 * A list of ids in a body (`tags`, `activity_ids`): optional, an array of at most `maxItems`
 * strings. Each item's format and existence are checked by the service, keyed `field.N`.
 */
export function IdListField(options: { maxItems: number; description: string }): PropertyDecorator {
  const problem = (value: unknown, property: string): string | null => {
    // "The activity ids field …", as every backend message names a field (docs/decisions.md D-74).
    const field = property.replace(/_/g, ' ');
    if (value === undefined) return null;
    if (!Array.isArray(value)) return `The ${field} field must be an array.`;
    if (value.length > options.maxItems)
      return `The ${field} field must not have more than ${options.maxItems} items.`;
    return value.every((item) => typeof item === 'string')
      ? null
      : `The ${field} field must be a list of ids.`;
  };
  return applyDecorators(
    ValidateBy({
      name: 'idListField',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          problem(value, args?.property ?? '') === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value, args?.property ?? '') ?? '',
      },
    }),
    ApiProperty({
      type: 'string',
      format: 'uuid',
      isArray: true,
      maxItems: options.maxItems,
      required: false,
      description: options.description,
    }),
  );
}
