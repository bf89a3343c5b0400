-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- a filter-only page and its exact total (sql/filter-listing.ts: filterListingSql) with facets (D-81): the counted set materialised, the counts per value of every field
-- request: GET /travels?facets=category%2Cdestination%2Cdiscountclub%2Cseaside
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin
-- values:
--   $1 = 8
--   $2 = 0

WITH
  counted AS MATERIALIZED (
    SELECT
      o.id,
      o.destination_code,
      o.categories,
      o.discount_club,
      o.seaside
    FROM
      travel_offers o
  )
SELECT
  t.total,
  f.facets,
  f.unknown_category,
  f.unknown_destination,
  p.*
FROM
  (
    SELECT
      count(*)::integer AS total
    FROM
      counted
  ) t
  CROSS JOIN (
    SELECT
      json_build_object(
        'category',
        (
          SELECT
            coalesce(json_object_agg(v.value, v.count), '{}')
          FROM
            (
              SELECT
                fv.value,
                count(*)::integer AS count
              FROM
                counted m
                CROSS JOIN LATERAL (
                  SELECT DISTINCT
                    unnest(m.categories) AS value
                ) fv
              GROUP BY
                fv.value
            ) v
        ),
        'destination',
        (
          SELECT
            coalesce(json_object_agg(v.value, v.count), '{}')
          FROM
            (
              SELECT
                fv.value,
                count(*)::integer AS count
              FROM
                counted m
                CROSS JOIN LATERAL (
                  SELECT
                    m.destination_code AS value
                  WHERE
                    m.destination_code IS NOT NULL
                ) fv
              GROUP BY
                fv.value
            ) v
        ),
        'discountclub',
        (
          SELECT
            coalesce(json_object_agg(v.value, v.count), '{}')
          FROM
            (
              SELECT
                fv.value,
                count(*)::integer AS count
              FROM
                counted m
                CROSS JOIN LATERAL (
                  SELECT
                    m.discount_club::text AS value
                ) fv
              GROUP BY
                fv.value
            ) v
        ),
        'seaside',
        (
          SELECT
            coalesce(json_object_agg(v.value, v.count), '{}')
          FROM
            (
              SELECT
                fv.value,
                count(*)::integer AS count
              FROM
                counted m
                CROSS JOIN LATERAL (
                  SELECT
                    m.seaside::text AS value
                ) fv
              GROUP BY
                fv.value
            ) v
        )
      ) AS facets,
      '[]'::json AS unknown_category,
      '[]'::json AS unknown_destination
  ) f
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
