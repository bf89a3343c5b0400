-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- a hybrid search's semantic side, given the text side's best ids (sql/semantic-side.ts: semanticSideSql)
-- request: GET /travels?search=santorini+beach&destination=gr&category=beach%2Cwellness&dates=2027-03-01_2027-03-31%2C2027-07-01_2027-08-15&hide_invalid=true&discountclub=true&seaside=true
-- settings: APP_ENV=local EMBEDDING_PROVIDER=builtin
-- values:
--   $1 = "santorini beach"
--   $2 = (the query's embedding, elided)
--   $3 = ["TRV-000001","TRV-000002","TRV-000003"]
--   $4 = "GR"
--   $5 = ["beach","wellness"]
--   $6 = "{[2027-03-01,2027-03-31],[2027-07-01,2027-08-15]}"
--   $7 = true
--   $8 = true
--   $9 = 100
--   $10 = 500
--   $11 = 0.1

WITH
  search_query AS MATERIALIZED (
    SELECT
      websearch_to_tsquery('travel_search', $1) AS query
  ),
  text_best_distances AS MATERIALIZED (
    SELECT
      o.id,
      o.embedding <=> $2::vector AS distance
    FROM
      travel_offers o
    WHERE
      o.id = ANY ($3::text[])
  ),
  nearest_offers AS MATERIALIZED (
    SELECT
      o.id,
      o.embedding <=> $2::vector AS distance
    FROM
      travel_offers o
    WHERE
      o.destination_code = $4
      AND o.categories && $5::text[]
      AND o.departure_days && $6::datemultirange
      AND o.is_valid
      AND o.discount_club = $7
      AND o.seaside = $8
    ORDER BY
      o.embedding <=> $2::vector
    LIMIT
      $9
  ),
  spelling_neighbours AS MATERIALIZED (
    SELECT
      o.id,
      o.embedding <=> $2::vector AS distance
    FROM
      travel_offers o
    WHERE
      o.search_vector @@ (
        SELECT
          string_agg(DISTINCT quote_literal(neighbours.term), ' | ')::tsquery
        FROM
          search_query,
          (
            SELECT
              word
            FROM
              unnest(tsvector_to_array(to_tsvector('travel_search', $1))) AS words (word)
            LIMIT
              8
          ) search_words
          CROSS JOIN LATERAL (
            SELECT
              s.term
            FROM
              search_terms s
            WHERE
              s.term % search_words.word
              AND strpos(s.term, ' ') = 0
              AND s.documents <= $10::int
              AND s.term ~ '^[[:alnum:]]+$'
              -- a one-word search's own word adds only what the text side already holds
              AND (
                s.term <> search_words.word
                OR numnode(search_query.query) > 1
              )
            ORDER BY
              similarity (s.term, search_words.word) DESC,
              s.term
            LIMIT
              3
          ) neighbours
      )
      AND o.destination_code = $4
      AND o.categories && $5::text[]
      AND o.departure_days && $6::datemultirange
      AND o.is_valid
      AND o.discount_club = $7
      AND o.seaside = $8
  ),
  semantic_ranks AS MATERIALIZED (
    SELECT
      id,
      row_number() OVER (
        ORDER BY
          distance,
          id
      ) AS rank
    FROM
      (
        SELECT
          id,
          min(distance) AS distance
        FROM
          (
            SELECT
              id,
              distance
            FROM
              nearest_offers
            UNION ALL
            SELECT
              id,
              distance
            FROM
              spelling_neighbours
            UNION ALL
            SELECT
              id,
              distance
            FROM
              text_best_distances
          ) candidates
        GROUP BY
          id
      ) semantic
    WHERE
      1 - distance >= $11::float8
  )
SELECT
  (
    SELECT
      generation::text
    FROM
      search_stats
    LIMIT
      1
  ) AS generation,
  s.id,
  s.rank::int AS rank
FROM
  (
    SELECT
      1
  ) one
  LEFT JOIN semantic_ranks s ON true
