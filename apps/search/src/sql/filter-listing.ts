import { pageWithTotalSql } from '@rt/database';
import type { Sql } from '@rt/database';
import type { OrderBy } from '../request/listing-request';
import type { FilterRequest } from '../request/listing-request';
import { filterConditions, whereClause } from './filter-conditions';
import { DENSITY_COLUMNS, GENERATION_COLUMN } from './offer-columns';
import { SqlParams } from './sql-params';

// The statements of the filter-only branch of GET /travels (no search), built from its request
// (pure, so that the benchmark and the statement snapshots run the very same statements:
// cli/query-statements.ts). Every value is a parameter; identifiers come from fixed maps.

const SORT_COLUMNS: Record<OrderBy, string> = {
  rating: 'o.rating',
  departure: 'o.next_departure',
  duration: 'o.duration',
};

/** ORDER BY of the filter-only branch: the sort column nulls last (travel_offers_<sort>_<dir>_idx), then id; or id alone (the primary key). */
function orderClause({ orderBy, direction }: Pick<FilterRequest, 'orderBy' | 'direction'>): string {
  if (!orderBy) return 'ORDER BY o.id';
  return `ORDER BY ${SORT_COLUMNS[orderBy]} ${direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, o.id`;
}

/** The page's SELECT, its filter values and then its LIMIT and OFFSET added to `params`. */
function pageSelect(request: FilterRequest, params: SqlParams): { where: string; page: string } {
  const where = whereClause(filterConditions(request.filters, params));
  const limit = params.add(request.page.limit);
  const offset = params.add(request.page.offset);
  return {
    where,
    page: `SELECT ${DENSITY_COLUMNS[request.density]} FROM travel_offers o ${where} ${orderClause(request)} LIMIT ${limit} OFFSET ${offset}`,
  };
}

/** One page of the filter-only branch, without its total. */
export function filterPageSql(request: FilterRequest): Sql {
  const params = new SqlParams();
  return params.sql(pageSelect(request, params).page);
}

/**
 * A page and its exact total in one statement (`pageWithTotalSql`), so both come from the same
 * snapshot (a reindex that commits in between never shows a total of one catalogue beside a page
 * of the other); an empty page still returns the total (with null columns).
 */
export function filterListingSql(request: FilterRequest): Sql {
  const params = new SqlParams();
  const { where, page } = pageSelect(request, params);
  // With a count limit, the count stops one past the bound (the service then answers "gte").
  const countLimit = request.countLimit === undefined ? '' : ` LIMIT ${params.add(request.countLimit)}`;
  return pageWithTotalSql({
    counted: `(SELECT 1 FROM travel_offers o ${where}${countLimit}) counted`,
    page,
    values: params.values,
  });
}

/**
 * A filter-only page with the index's generation instead of its total: the listing with facets
 * (D-81) counts its total and facets in the replica's memory (ranking/filter-listing.service.ts),
 * and the generation tells whether the page was read from the catalogue those counts were taken
 * of (D-63). One row with null columns when the page is empty.
 */
export function filterPageAtGenerationSql(request: FilterRequest): Sql {
  const params = new SqlParams();
  const { page } = pageSelect(request, params);
  return params.sql(
    `SELECT ${GENERATION_COLUMN}, p.* FROM (SELECT 1) one LEFT JOIN LATERAL (${page}) p ON true`,
  );
}
