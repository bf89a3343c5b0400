-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- a filter-only page and its exact total (sql/filter-listing.ts: filterListingSql)
-- request: GET /travels
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin
-- values:
--   $1 = 8
--   $2 = 0

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
      ) counted
  ) t
  LEFT JOIN LATERAL (
    SELECT
      o.id,
      o.record
    FROM
      travel_offers o
    ORDER BY
      o.id
    LIMIT
      $1
    OFFSET
      $2
  ) p ON true
