-- Written by `pnpm sql:snapshots` (apps/search/src/cli/sql-snapshots.ts); do not edit.
-- the reindex's BM25 indexer: the staged offers' words (their compounds' parts written between, indexes/reindex/offer-compounds.ts), terms, lengths and postings, in its apply transaction (sql/postings.ts: offerWordsSql, postingsSql)
-- values: none

CREATE TEMPORARY TABLE offer_words ON
COMMIT
DROP AS
SELECT DISTINCT
  lexeme
FROM
  travel_offers o,
  unnest(tsvector_to_array(o.search_vector)) lexeme
WHERE
  o.id IN (
    SELECT
      id
    FROM
      travel_offers_staging
  );

CREATE TEMPORARY TABLE offer_compound_parts (lexeme text NOT NULL, part text NOT NULL) ON
COMMIT
DROP;

CREATE TEMPORARY TABLE posting_terms ON
COMMIT
DROP AS
WITH
  occurrences AS (
    SELECT
      o.id,
      u.lexeme,
      p.pos,
      p.weight,
      CASE p.weight
        WHEN 'A' THEN 3.0
        WHEN 'B' THEN 1.5
        WHEN 'C' THEN 0.75
        ELSE 1.0
      END AS boost,
      CASE p.weight
        WHEN 'A' THEN 1
        WHEN 'B' THEN 2
        WHEN 'C' THEN 4
        ELSE 8
      END | CASE
        WHEN p.weight = 'B'
        AND u.lexeme = ANY (d.lexemes) THEN 16
        ELSE 0
      END AS bit
    FROM
      travel_offers o
      CROSS JOIN LATERAL (
        SELECT
          tsvector_to_array(
            to_tsvector(
              travel_language_config (o.record ->> 'language'),
              travel_fold (coalesce(o.destination_name, ''))
            )
          ) AS lexemes
        OFFSET
          0
      ) d,
      unnest(o.search_vector) u,
      unnest(u.positions, u.weights) p (pos, weight)
    WHERE
      o.id IN (
        SELECT
          id
        FROM
          travel_offers_staging
      )
  ),
  sequence AS (
    SELECT
      id,
      lexeme,
      pos,
      weight,
      boost,
      bit,
      lead(lexeme) OVER w AS next_lexeme,
      lead(pos) OVER w AS next_pos,
      lead(weight) OVER w AS next_weight,
      lead(bit) OVER w AS next_bit
    FROM
      occurrences
    WINDOW
      w AS (
        PARTITION BY
          id
        ORDER BY
          pos
      )
  ),
  terms AS (
    SELECT
      id,
      lexeme AS term,
      boost,
      bit,
      true AS whole
    FROM
      sequence
    UNION ALL
    SELECT
      id,
      lexeme || ' ' || next_lexeme,
      boost,
      bit & (next_bit | 15),
      true
    FROM
      sequence
    WHERE
      next_pos = pos + 1
      AND next_weight = weight
    UNION ALL
    SELECT
      s.id,
      c.part,
      s.boost * 0.8,
      s.bit,
      false
    FROM
      sequence s
      JOIN offer_compound_parts c ON c.lexeme = s.lexeme
  )
SELECT
  id,
  term COLLATE "C" AS term,
  sum(boost)::float8 AS tf,
  sum(boost) FILTER (
    WHERE
      whole
      AND strpos(term, ' ') = 0
  )::float8 AS length,
  bit_or(bit)::smallint AS fields
FROM
  terms
GROUP BY
  id,
  term;

INSERT INTO
  search_lengths (offer_id, length)
SELECT
  id,
  sum(length)::real
FROM
  posting_terms
GROUP BY
  id;

INSERT INTO
  search_postings (term, offer_id, impact, fields)
SELECT
  t.term,
  t.id,
  (t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * l.length / r.reference)))::real,
  t.fields
FROM
  posting_terms t
  JOIN search_lengths l ON l.offer_id = t.id,
  (
    SELECT
      coalesce(
        (
          SELECT
            reference_length
          FROM
            search_stats
          WHERE
            offers > 0
        ),
        (
          SELECT
            avg(length)
          FROM
            search_lengths
        )
      ) AS reference
  ) r
ORDER BY
  t.id,
  t.term;

DROP TABLE posting_terms;

DROP TABLE offer_compound_parts;

DROP TABLE offer_words
