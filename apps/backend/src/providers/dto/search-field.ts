import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export const MAX_SEARCH_LENGTH = 100;

/**
 * `search` of a listing: part of the name, any case, at most 100 characters; blank counts as
 * absent. Shared by the providers, activities and tours listings.
 */
export function SearchQueryField(description: string): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && value.trim() === '' ? undefined : value,
    ),
    IsOptional(),
    IsString({ message: 'The search field must be a string.' }),
    MaxLength(MAX_SEARCH_LENGTH, {
      message: `The search field must not be greater than ${MAX_SEARCH_LENGTH} characters.`,
    }),
    ApiPropertyOptional({ type: 'string', maxLength: MAX_SEARCH_LENGTH, description }),
  );
}

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
export const containsPattern = (text: string): string =>
  `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
