import type { DateRange } from './date-ranges';
import { toDateMultirange } from './date-ranges';
import type { InfoDensity, OrderBy, OrderDirection } from './dto/travels-query.dto';

/**
 * The SQL of the listings, built from parsed filters (pure, so that the benchmark runs the very
 * same statements directly). Every value is a parameter; identifiers come from fixed maps.
 */
export interface ListingFilters {
  /** ISO-2, upper case. */
  destination?: string;
  categories?: string[];
  dateRanges?: DateRange[];
  hideInvalid?: boolean;
  discountClub?: boolean;
  seaside?: boolean;
}

export interface ListingSort {
  orderBy?: OrderBy;
  direction: OrderDirection;
}

export interface ListingPage {
  limit: number;
  offset: number;
}

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
 * The WHERE clause of the filters (decisions.md, "Travel search service"), appending its values to
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

/** ORDER BY of the filter-only branch: the sort column nulls last (travel_offers_<sort>_<dir>_idx), then id; or id alone (the primary key). */
export function orderClause(sort: ListingSort): string {
  if (!sort.orderBy) return 'ORDER BY o.id';
  const direction = sort.direction === 'desc' ? 'DESC' : 'ASC';
  return `ORDER BY ${SORT_COLUMNS[sort.orderBy]} ${direction} NULLS LAST, o.id`;
}

/** One page of the filter-only branch, without its total. */
export function filterPageSql(
  filters: ListingFilters,
  sort: ListingSort,
  page: ListingPage,
  density: InfoDensity,
): Sql {
  const values: unknown[] = [];
  const where = whereOf(filterConditions(filters, values));
  values.push(page.limit, page.offset);
  return {
    text: `SELECT ${COLUMNS[density]} FROM travel_offers o ${where} ${orderClause(sort)} LIMIT $${values.length - 1} OFFSET $${values.length}`,
    values,
  };
}

/** The exact count of the filter-only branch. */
export function filterCountSql(filters: ListingFilters): Sql {
  const values: unknown[] = [];
  const where = whereOf(filterConditions(filters, values));
  return { text: `SELECT count(*)::int AS total FROM travel_offers o ${where}`, values };
}

/**
 * A page and its exact total in one statement, so both come from the same snapshot (a reindex
 * that commits in between never shows a total of one catalogue beside a page of the other). The
 * page is joined laterally, so an empty page still returns the total (with null columns).
 */
export function filterListingSql(
  filters: ListingFilters,
  sort: ListingSort,
  page: ListingPage,
  density: InfoDensity,
): Sql {
  const values: unknown[] = [];
  const where = whereOf(filterConditions(filters, values));
  values.push(page.limit, page.offset);
  const limit = `$${values.length - 1}`;
  const offset = `$${values.length}`;
  return {
    text: `SELECT c.total, p.* FROM (SELECT count(*)::int AS total FROM travel_offers o ${where}) c
      LEFT JOIN LATERAL (SELECT ${COLUMNS[density]} FROM travel_offers o ${where} ${orderClause(sort)} LIMIT ${limit} OFFSET ${offset}) p ON true`,
    values,
  };
}

export interface TextQuery {
  search: string;
  tsvectorFloor: number;
}

/**
 * The full-text side of a search (part 1 answers searches with it alone; part 2 merges it with the
 * semantic side): records matching `websearch_to_tsquery('travel_search', search)` with a
 * `ts_rank_cd` at or above the floor, best first, ties by id, with the exact total. Relies on
 * travel_offers_search_vector_idx (GIN) for `@@`.
 */
export function textListingSql(
  query: TextQuery,
  filters: ListingFilters,
  page: ListingPage,
  density: InfoDensity,
): Sql {
  const values: unknown[] = [query.search, query.tsvectorFloor];
  const conditions = ['o.search_vector @@ q.query', ...filterConditions(filters, values)];
  values.push(page.limit, page.offset);
  const limit = `$${values.length - 1}`;
  const offset = `$${values.length}`;
  return {
    text: `WITH q AS (SELECT websearch_to_tsquery('travel_search', $1) AS query),
      ranked AS (
        SELECT o.id, ts_rank_cd(o.search_vector, q.query) AS rank
        FROM travel_offers o, q WHERE ${conditions.join(' AND ')}
      ),
      kept AS (SELECT id, rank, row_number() OVER (ORDER BY rank DESC, id) AS position FROM ranked WHERE rank >= $2)
      SELECT c.total, p.* FROM (SELECT count(*)::int AS total FROM kept) c
      LEFT JOIN LATERAL (
        SELECT k.rank AS tsvector_score, k.position::int AS position, ${COLUMNS[density]}
        FROM kept k JOIN travel_offers o ON o.id = k.id ORDER BY k.position LIMIT ${limit} OFFSET ${offset}
      ) p ON true`,
    values,
  };
}
