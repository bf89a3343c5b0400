import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, ValidationArguments, isURL } from 'class-validator';

/** `website`: an http(s) URL of at most 2048 characters; null clears it; may be left out. */
export function WebsiteField(): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') return 'The website field must be a string.';
    if (value.length > 2048) return 'The website field must not be greater than 2048 characters.';
    return isURL(value, { protocols: ['http', 'https'], require_protocol: true })
      ? null
      : 'The website field must be a valid URL starting with http:// or https://.';
  };
  return applyDecorators(
    ValidateBy({
      name: 'websiteField',
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? '',
      },
    }),
    ApiProperty({
      type: 'string',
      format: 'uri',
      maxLength: 2048,
      nullable: true,
      required: false,
      example: 'https://example.com',
    }),
  );
}
