-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- a filter-only page and its exact total (sql/filter-listing.ts: filterListingSql) with facets (D-81): every filter, the unknown filter values looked up, the facets counting the bound's first offers
-- request: GET /travels?destination=gr&category=beach%2Cwellness&dates=2027-03-01_2027-03-31%2C2027-07-01_2027-08-15&hide_invalid=true&discountclub=true&seaside=true&facets=category%2Cdestination%2Cdiscountclub%2Cseaside&infoDensity=min
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin SEARCH_TOTAL_EXACT_LIMIT=10000
-- values:
--   $1 = "GR"
--   $2 = ["beach","wellness"]
--   $3 = "{[2027-03-01,2027-03-31],[2027-07-01,2027-08-15]}"
--   $4 = true
--   $5 = true
--   $6 = 8
--   $7 = 0
--   $8 = 10001
--   $9 = 10000
--   $10 = ["beach","wellness"]
--   $11 = "GR"

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
    WHERE
      o.destination_code = $1
      AND o.categories && $2::text[]
      AND o.departure_days && $3::datemultirange
      AND o.is_valid
      AND o.discount_club = $4
      AND o.seaside = $5
    ORDER BY
      o.id
    LIMIT
      $8
  ),
  faceted AS MATERIALIZED (
    SELECT
      *
    FROM
      counted
    ORDER BY
      id
    LIMIT
      $9
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
                faceted m
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
                faceted m
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
                faceted m
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
                faceted m
                CROSS JOIN LATERAL (
                  SELECT
                    m.seaside::text AS value
                ) fv
              GROUP BY
                fv.value
            ) v
        )
      ) AS facets,
      (
        SELECT
          coalesce(
            json_agg(
              s.slug
              ORDER BY
                s.position
            ),
            '[]'
          )
        FROM
          unnest($10::text[]) WITH ORDINALITY s (slug, position)
        WHERE
          NOT EXISTS (
            SELECT
              1
            FROM
              travel_offers u
            WHERE
              u.categories && ARRAY[s.slug]
          )
      ) AS unknown_category,
      (
        SELECT
          coalesce(json_agg(s.code), '[]')
        FROM
          (
            SELECT
              $11::text AS code
          ) s
        WHERE
          NOT EXISTS (
            SELECT
              1
            FROM
              travel_offers u
            WHERE
              u.destination_code = s.code
          )
      ) AS unknown_destination
  ) f
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
      o.id
    LIMIT
      $6
    OFFSET
      $7
  ) p ON true
