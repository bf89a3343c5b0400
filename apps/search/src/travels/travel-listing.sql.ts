import { toDateMultirange } from './date-ranges';
import type { InfoDensity, OrderBy } from './dto/travels-query.dto';
import type { FilterRequest, ListingFilters } from './travels-request';

// The SQL of the listings, built from a request (pure, so that the benchmark runs the very same
// statements directly: listing-statements.ts). Every value is a parameter; identifiers come from
// fixed maps.

/** A statement and its parameter values. */
export interface Sql {
  text: string;
  values: unknown[];
}

/** What each density reads; `full` reads the stored record only. */
export const COLUMNS: Record<InfoDensity, string> = {
  min: 'o.id, o.name, o.slug',
  card: `o.id, o.name, o.slug, o.description, o.rating, to_char(o.next_departure, 'YYYY-MM-DD"T"HH24:MI:SS') AS next_departure`,
  search: 'o.id, o.name, o.destination_name, o.discount_club, o.is_valid, o.categories, o.departure_dates',
  full: 'o.id, o.record',
};

const SORT_COLUMNS: Record<OrderBy, string> = {
  rating: 'o.rating',
  departure: 'o.next_departure',
  duration: 'o.duration',
};

/**
 * The WHERE clause of the filters (docs/decisions.md D-49), appending its values to
 * `values`. Each condition has an index: travel_offers_destination_idx, travel_offers_categories_idx
 * (GIN, `&&`), travel_offers_departure_days_idx (GiST, `&&` on the day multirange), and the boolean
 * indexes.
 */
export function filterConditions(filters: ListingFilters, values: unknown[]): string[] {
  const conditions: string[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filters.destination !== undefined)
    conditions.push(`o.destination_code = ${param(filters.destination)}`);
  if (filters.categories?.length) conditions.push(`o.categories && ${param(filters.categories)}::text[]`);
  if (filters.dateRanges?.length) {
    conditions.push(`o.departure_days && ${param(toDateMultirange(filters.dateRanges))}::datemultirange`);
  }
  if (filters.hideInvalid) conditions.push('o.is_valid');
  if (filters.discountClub !== undefined) conditions.push(`o.discount_club = ${param(filters.discountClub)}`);
  if (filters.seaside !== undefined) conditions.push(`o.seaside = ${param(filters.seaside)}`);
  return conditions;
}

const whereOf = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');

/**
 * The filters as a WHERE clause (`where`, empty without filters) and as conditions to append to
 * one (`and`: ` AND …` each), their values appended to `values`.
 */
export function filterClauses(filters: ListingFilters, values: unknown[]): { where: string; and: string } {
  const conditions = filterConditions(filters, values);
  return { where: whereOf(conditions), and: conditions.map((condition) => ` AND ${condition}`).join('') };
}

/** ORDER BY of the filter-only branch: the sort column nulls last (travel_offers_<sort>_<dir>_idx), then id; or id alone (the primary key). */
function orderClause({ orderBy, direction }: Pick<FilterRequest, 'orderBy' | 'direction'>): string {
  if (!orderBy) return 'ORDER BY o.id';
  return `ORDER BY ${SORT_COLUMNS[orderBy]} ${direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, o.id`;
}

/** One page of the filter-only branch, without its total. */
export function filterPageSql(request: FilterRequest): Sql {
  const values: unknown[] = [];
  const where = whereOf(filterConditions(request.filters, values));
  values.push(request.page.limit, request.page.offset);
  return {
    text: `SELECT ${COLUMNS[request.density]} FROM travel_offers o ${where} ${orderClause(request)} LIMIT $${values.length - 1} OFFSET $${values.length}`,
    values,
  };
}

/**
 * A page and its exact total in one statement, so both come from the same snapshot (a reindex
 * that commits in between never shows a total of one catalogue beside a page of the other). The
 * page is joined laterally, so an empty page still returns the total (with null columns).
 */
export function filterListingSql(request: FilterRequest): Sql {
  const values: unknown[] = [];
  const where = whereOf(filterConditions(request.filters, values));
  values.push(request.page.limit, request.page.offset);
  const limit = `$${values.length - 1}`;
  const offset = `$${values.length}`;
  // With a count limit, the count stops one past the bound (the service then answers "gte").
  let counted = `SELECT 1 FROM travel_offers o ${where}`;
  if (request.countLimit !== undefined) {
    values.push(request.countLimit);
    counted += ` LIMIT $${values.length}`;
  }
  return {
    text: `SELECT c.total, p.* FROM (SELECT count(*)::int AS total FROM (${counted}) counted) c
      LEFT JOIN LATERAL (SELECT ${COLUMNS[request.density]} FROM travel_offers o ${where} ${orderClause(request)} LIMIT ${limit} OFFSET ${offset}) p ON true`,
    values,
  };
}
