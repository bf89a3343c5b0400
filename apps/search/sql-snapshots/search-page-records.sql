-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- the records of a hybrid search's page, with their similarity (sql/page-records.ts: pageRecordsSql)
-- request: GET /travels?search=santorini+beach&infoDensity=search
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin
-- values:
--   $1 = ["TRV-000001","TRV-000002","TRV-000003"]
--   $2 = (the query's embedding, elided)

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
      1 - (o.embedding <=> $2::vector) AS semantic_score,
      o.id,
      o.name,
      o.destination_name,
      o.discount_club,
      o.is_valid,
      o.categories,
      o.departure_dates
    FROM
      travel_offers o
    WHERE
      o.id = ANY ($1::text[])
  ) p ON true
