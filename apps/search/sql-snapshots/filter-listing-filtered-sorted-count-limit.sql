-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- a filter-only page and its exact total (sql/filter-listing.ts: filterListingSql): every filter, sorted, the count stopping one past SEARCH_TOTAL_EXACT_LIMIT
-- request: GET /travels?destination=gr&category=beach%2Cwellness&dates=2027-03-01_2027-03-31%2C2027-07-01_2027-08-15&hide_invalid=true&discountclub=true&seaside=true&orderBy=departure&orderDirection=desc&page=3&size=20&infoDensity=card
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin SEARCH_TOTAL_EXACT_LIMIT=10000
-- values:
--   $1 = "GR"
--   $2 = ["beach","wellness"]
--   $3 = "{[2027-03-01,2027-03-31],[2027-07-01,2027-08-15]}"
--   $4 = true
--   $5 = true
--   $6 = 20
--   $7 = 40
--   $8 = 10001

SELECT
  t.total,
  p.*
FROM
  (
    SELECT
      count(*)::integer AS total
    FROM
      (
        SELECT
          1
        FROM
          travel_offers o
        WHERE
          o.destination_code = $1
          AND o.categories && $2::text[]
          AND o.departure_days && $3::datemultirange
          AND o.is_valid
          AND o.discount_club = $4
          AND o.seaside = $5
        LIMIT
          $8
      ) counted
  ) t
  LEFT JOIN LATERAL (
    SELECT
      o.id,
      o.name,
      o.slug,
      o.description,
      o.rating,
      to_char(o.next_departure, 'YYYY-MM-DD"T"HH24:MI:SS') AS next_departure
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
      o.next_departure DESC NULLS LAST,
      o.id
    LIMIT
      $6
    OFFSET
      $7
  ) p ON true
