import { toDateMultirange } from '../catalogue/date-ranges';
import type { ListingFilters } from '../request/listing-filters';
import type { SqlParams } from './sql-params';

/**
 * The conditions on an offer `o` of the filters (docs/decisions.md D-49), to be joined with AND,
 * their values added to `params`. Each condition has an index: travel_offers_destination_idx,
 * travel_offers_categories_idx (GIN, `&&`), travel_offers_departure_days_idx (GiST, `&&` on the day
 * multirange), and the boolean indexes. The in-memory text index applies the same filters
 * (text-index/offer-filters.ts).
 */
export function filterConditions(filters: ListingFilters, params: SqlParams): string[] {
  const conditions: string[] = [];
  if (filters.destination !== undefined)
    conditions.push(`o.destination_code = ${params.add(filters.destination)}`);
  if (filters.categories?.length)
    conditions.push(`o.categories && ${params.add(filters.categories, 'text[]')}`);
  if (filters.dateRanges?.length) {
    conditions.push(
      `o.departure_days && ${params.add(toDateMultirange(filters.dateRanges), 'datemultirange')}`,
    );
  }
  if (filters.hideInvalid) conditions.push('o.is_valid');
  if (filters.discountClub !== undefined)
    conditions.push(`o.discount_club = ${params.add(filters.discountClub)}`);
  if (filters.seaside !== undefined) conditions.push(`o.seaside = ${params.add(filters.seaside)}`);
  return conditions;
}

/** The conditions as a WHERE clause; empty without any. */
export const whereClause = (conditions: string[]): string =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';

/** The conditions appended to a WHERE clause of other conditions: ` AND …` each; empty without any. */
export const andConditions = (conditions: string[]): string =>
  conditions.map((condition) => ` AND ${condition}`).join('');
