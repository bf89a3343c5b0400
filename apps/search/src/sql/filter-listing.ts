import { pageWithTotalSql } from '@rt/database';
import type { Sql } from '@rt/database';
import type { OrderBy } from '../request/listing-request';
import type { FacetField } from '../request/listing-facets';
import type { FilterRequest } from '../request/listing-request';
import { filterConditions, whereClause } from './filter-conditions';
import { DENSITY_COLUMNS } from './offer-columns';
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
  if (request.facets) return filterListingWithFacetsSql(request, request.facets);
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
 * The value of each facet field of an offer `m` of the counted set, as the filter takes it (D-81):
 * one row per value; an offer listing a slug twice counts once, one without a destination in none.
 */
const FACET_VALUES: Record<FacetField, string> = {
  category: 'SELECT DISTINCT unnest(m.categories) AS value',
  destination: 'SELECT m.destination_code AS value WHERE m.destination_code IS NOT NULL',
  discountclub: 'SELECT m.discount_club::text AS value',
  seaside: 'SELECT m.seaside::text AS value',
};

/**
 * filterListingSql with facets (D-81), one statement and so one snapshot: the set the total counts
 * is materialised once (`counted`), its total and the counts per value of each asked field read
 * from it, and the page read as without facets. With a count limit the set stops one past the
 * bound in id order (as the total does), and the facets count its first `countLimit − 1` offers
 * (`faceted`): those the bounded total answers for. The category and destination filter values
 * that no offer holds are named (`unknown_category`, `unknown_destination`), each looked up by its
 * index.
 */
function filterListingWithFacetsSql(request: FilterRequest, fields: readonly FacetField[]): Sql {
  const params = new SqlParams();
  const { where, page } = pageSelect(request, params);
  const bounded = request.countLimit !== undefined;
  const countLimit = bounded ? ` ORDER BY o.id LIMIT ${params.add(request.countLimit)}` : '';
  // the bound's first offers, sorted once for every field
  const faceted = bounded
    ? `,\nfaceted AS MATERIALIZED (SELECT * FROM counted ORDER BY id LIMIT ${params.add(request.countLimit! - 1)})`
    : '';
  const facetSet = bounded ? 'faceted m' : 'counted m';
  const counts = [...new Set(fields)].map(
    (field) =>
      `'${field}', (SELECT coalesce(json_object_agg(v.value, v.count), '{}') FROM (SELECT fv.value, count(*)::integer AS count FROM ${facetSet} CROSS JOIN LATERAL (${FACET_VALUES[field]}) fv GROUP BY fv.value) v)`,
  );
  const { categories, destination } = request.filters;
  const unknownCategories = categories?.length
    ? `(SELECT coalesce(json_agg(s.slug ORDER BY s.position), '[]') FROM unnest(${params.add(categories, 'text[]')}) WITH ORDINALITY s(slug, position) WHERE NOT EXISTS (SELECT 1 FROM travel_offers u WHERE u.categories && ARRAY[s.slug]))`
    : `'[]'::json`;
  const unknownDestination =
    destination !== undefined
      ? `(SELECT coalesce(json_agg(s.code), '[]') FROM (SELECT ${params.add(destination, 'text')} AS code) s WHERE NOT EXISTS (SELECT 1 FROM travel_offers u WHERE u.destination_code = s.code))`
      : `'[]'::json`;
  return {
    text: `WITH counted AS MATERIALIZED (SELECT o.id, o.destination_code, o.categories, o.discount_club, o.seaside FROM travel_offers o ${where}${countLimit})${faceted}
SELECT t.total, f.facets, f.unknown_category, f.unknown_destination, p.*
  FROM (SELECT count(*)::integer AS total FROM counted) t
  CROSS JOIN (SELECT json_build_object(${counts.join(', ')}) AS facets, ${unknownCategories} AS unknown_category, ${unknownDestination} AS unknown_destination) f
  LEFT JOIN LATERAL (${page}) p ON true`,
    values: params.values,
  };
}
