import { ApiProperty } from '@nestjs/swagger';
import { QueryIntegerField } from './query-fields';

/**
 * The last page a list may be asked for: its offset (page − 1) × per_page stays an exact integer
 * the database takes (a page of 1e308 is an integer to the validator, and made PostgreSQL fail).
 */
export const MAX_PAGE = 1_000_000;

/**
 * `page` and `per_page` of every backend list; the cap is applied per endpoint by `toPage`. Each
 * reports one message in the backend's style ("The per page field must be an integer.", D-74).
 */
export class PageQueryDto {
  @QueryIntegerField({ min: 1, max: MAX_PAGE, default: 1 })
  page?: number;

  @QueryIntegerField({
    min: 1,
    description: 'Items per page; values above the endpoint cap are lowered to it silently.',
  })
  per_page?: number;
}

export interface Page {
  page: number;
  perPage: number;
  offset: number;
  limit: number;
}

export interface PageRules {
  /** The silent cap of docs/decisions.md D-19: 100 for most lists, 1000 for tags. */
  maxPerPage: number;
  defaultPerPage?: number;
}

/** The cap of docs/decisions.md D-19: codes, batches, organizations, tours, providers, activities, trips. */
export const LIST_PAGE_RULES: PageRules = { maxPerPage: 100, defaultPerPage: 25 };

/** Tags: clients read the whole registry in one page of 1000. */
export const TAG_PAGE_RULES: PageRules = { maxPerPage: 1000, defaultPerPage: 25 };

export function toPage(query: PageQueryDto, rules: PageRules): Page {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? rules.defaultPerPage ?? 25, rules.maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage };
}

export class PageMetaDto {
  @ApiProperty({ type: 'integer', description: 'Size of the filtered set.' })
  total!: number;

  @ApiProperty({ type: 'integer' })
  current_page!: number;

  @ApiProperty({ type: 'integer' })
  per_page!: number;

  @ApiProperty({ type: 'integer', description: 'At least 1, even for an empty set.' })
  last_page!: number;
}

export interface Paginated<T> {
  data: T[];
  meta: PageMetaDto;
}

export function paginated<T>(data: T[], total: number, page: Page): Paginated<T> {
  return {
    data,
    meta: {
      total,
      current_page: page.page,
      per_page: page.perPage,
      last_page: Math.max(1, Math.ceil(total / page.perPage)),
    },
  };
}
