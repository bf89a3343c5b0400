-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- a filter-only page with facets (D-81): the page and the index's generation, the total and the facets counted in memory (sql/filter-listing.ts: filterPageAtGenerationSql)
-- request: GET /travels?destination=gr&category=beach%2Cwellness&dates=2027-03-01_2027-03-31%2C2027-07-01_2027-08-15&hide_invalid=true&discountclub=true&seaside=true&facets=category%2Cdestination%2Cdiscountclub%2Cseaside&orderBy=rating&infoDensity=min
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin SEARCH_TOTAL_EXACT_LIMIT=10000
-- values:
--   $1 = "GR"
--   $2 = ["beach","wellness"]
--   $3 = "{[2027-03-01,2027-03-31],[2027-07-01,2027-08-15]}"
--   $4 = true
--   $5 = true
--   $6 = 8
--   $7 = 0

SELECT
  (
    SELECT
      generation::text
    FROM
      search_stats
    LIMIT
      1
  ) AS generation,
  p.*
FROM
  (
    SELECT
      1
  ) one
  LEFT JOIN LATERAL (
    SELECT
      o.id,
      o.name,
      o.slug
    FROM
      travel_offers o
    WHERE
      o.destination_code = $1
      AND o.categories && $2::text[]
      AND o.departure_days && $3::datemultirange
      AND o.is_valid
      AND o.discount_club = $4
      AND o.seaside = $5
    ORDER BY
      o.rating ASC NULLS LAST,
      o.id
    LIMIT
      $6
    OFFSET
      $7
  ) p ON true
