import { QueryTextField } from '@rt/contracts';

export const MAX_SEARCH_LENGTH = 100;

/**
 * `search` of a listing: part of the name, any case, at most 100 characters; blank counts as
 * absent. Shared by the providers, activities and tours listings.
 */
export function SearchQueryField(description: string): PropertyDecorator {
  return QueryTextField({ max: MAX_SEARCH_LENGTH, description });
}

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
export const containsPattern = (text: string): string =>
  `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
