import type { Sql } from '@rt/database';
import type { FacetField } from '../request/listing-facets';
import type { FilterRequest, OrderBy } from '../request/listing-request';
import { filterConditions, whereClause } from '../sql/filter-conditions';
import { DENSITY_COLUMNS } from '../sql/offer-columns';
import { SqlParams } from '../sql/sql-params';

// The statement that counted a filter-only listing's facets in PostgreSQL until the counts moved to
// the replica's memory (docs/decisions.md D-81, "Where the counts come from"), kept here alone so
// that bench/facets-bench.ts measures the two side by side and checks they count alike. The
// service no longer runs it.

const SORT_COLUMNS: Record<OrderBy, string> = {
  rating: 'o.rating',
  departure: 'o.next_departure',
  duration: 'o.duration',
};

/** The value(s) of each facet field of an offer `m` of the counted set, one row per value. */
const FACET_VALUES: Record<FacetField, string> = {
  category: 'SELECT DISTINCT unnest(m.categories) AS value',
  destination: 'SELECT m.destination_code AS value WHERE m.destination_code IS NOT NULL',
  discountclub: 'SELECT m.discount_club::text AS value',
  seaside: 'SELECT m.seaside::text AS value',
};

/**
 * The page, its total and the facets in one statement: the set the total counts materialised once,
 * the counts per value of each asked field read from it (with a count limit, of the bound's first
 * offers in id order), the category and destination filter values no offer holds looked up.
 */
export function sqlFacetListing(request: FilterRequest, fields: readonly FacetField[]): Sql {
  const params = new SqlParams();
  const where = whereClause(filterConditions(request.filters, params));
  const order = request.orderBy
    ? `ORDER BY ${SORT_COLUMNS[request.orderBy]} ${request.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, o.id`
    : 'ORDER BY o.id';
  const page = `SELECT ${DENSITY_COLUMNS[request.density]} FROM travel_offers o ${where} ${order} LIMIT ${params.add(request.page.limit)} OFFSET ${params.add(request.page.offset)}`;
  const bounded = request.countLimit !== undefined;
  const countLimit = bounded ? ` ORDER BY o.id LIMIT ${params.add(request.countLimit)}` : '';
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
