import { pageWithTotalSql, type Sql } from '@rt/database';

/**
 * The statements of the provider listing, built in one place so the service and the benchmark's
 * direct-SQL baseline run the same SQL (src/bench/tours-bench.ts).
 *
 * Page and total come from one statement (`pageWithTotalSql` of @rt/database): one round trip, one
 * snapshot, and an empty page still carries the total.
 *
 * Proximity (latitude and longitude given): only providers with coordinates, nearest first, by
 * `ll_to_earth(latitude, longitude) <-> ll_to_earth($lat, $lon)`: the Euclidean distance of the
 * two points on earthdistance's sphere (a chord), which grows with the great-circle distance, so
 * the order is the great-circle order and PostgreSQL reads it from the GiST index
 * `providers_location_idx` (KNN, `ORDER BY … <-> … LIMIT n`) instead of sorting every provider.
 * No tie-breaker after the distance: a second sort key would make PostgreSQL sort every row
 * instead of reading the index in order (two providers at the very same point may swap between
 * pages; their distance is the same).
 * `distance_meters`: earthdistance's great-circle distance, scaled from its sphere (radius
 * `earth()`, 6,378,168 m) to the mean Earth radius (6,371,008.8 m, IUGG), as a haversine uses it.
 */
export const MEAN_EARTH_RADIUS_METERS = 6_371_008.8;

export interface ProviderListingInput {
  /** An ILIKE pattern (`%…%`), or null for every name. */
  namePattern: string | null;
  near: { latitude: number; longitude: number } | null;
  limit: number;
  offset: number;
}

/** Column list of a provider row, aliased as TypeORM's raw results read it (see ProvidersRepository). */
export const PROVIDER_COLUMNS = `p.id, p.name, p.description, p.address, p.city, p.country, p.latitude,
  p.longitude, p.website, p.phone, p.email, p.origin, p.status, p.created_at, p.updated_at`;

export function providerListingSql(input: ProviderListingInput): Sql {
  if (input.near) {
    // providers_location_idx: GiST on ll_to_earth(latitude, longitude), read in distance order (KNN).
    return pageWithTotalSql({
      counted: `providers p WHERE p.latitude IS NOT NULL AND ($3::text IS NULL OR p.name ILIKE $3)`,
      page: `
        SELECT ${PROVIDER_COLUMNS},
               round(earth_distance(ll_to_earth(p.latitude, p.longitude), ll_to_earth($1, $2))
                     / earth() * ${MEAN_EARTH_RADIUS_METERS})::integer AS distance_meters
          FROM providers p
         WHERE p.latitude IS NOT NULL AND ($3::text IS NULL OR p.name ILIKE $3)
         ORDER BY ll_to_earth(p.latitude, p.longitude) <-> ll_to_earth($1, $2)
         LIMIT $4 OFFSET $5`,
      values: [input.near.latitude, input.near.longitude, input.namePattern, input.limit, input.offset],
    });
  }
  // providers_name_idx: by name, then id.
  return pageWithTotalSql({
    counted: `providers p WHERE ($1::text IS NULL OR p.name ILIKE $1)`,
    page: `
      SELECT ${PROVIDER_COLUMNS}, NULL::integer AS distance_meters
        FROM providers p
       WHERE ($1::text IS NULL OR p.name ILIKE $1)
       ORDER BY p.name, p.id
       LIMIT $2 OFFSET $3`,
    values: [input.namePattern, input.limit, input.offset],
  });
}
