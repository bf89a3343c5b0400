import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Query expansion on the text side (issue 26; apps/search/README.md, "Query expansion"):
 *
 * - `travel_term_forms(phrase)`: the index terms a folded word or phrase is looked up as: a word,
 *   folded and as its French, German and English stems; a phrase, the pairs of adjacent words the
 *   index holds, each pair stemmed by one stemmer as a record's field is;
 * - a second `travel_query_terms`, beside the first (which a search that expands nothing still
 *   calls, so that it costs what it did), takes what the service computes in memory from the glossary (and
 *   operator synonyms): `known_words`, the query words the glossary knows (folded, as the function
 *   splits the search), which are then neither typo-corrected nor split as unknown compounds (the
 *   glossary's own split stands in); and the expansions, four aligned arrays: the query word each
 *   counts for, the expanded word or phrase (folded), its weight and its kind. An expansion is a
 *   term of that query word, so it selects offers like the word and the word scores its best form
 *   (an exact match before an expansion).
 */
export class AddQueryExpansions1795800000000 implements MigrationInterface {
  name = 'AddQueryExpansions1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(TERM_FORMS_FUNCTION);
    await queryRunner.query(QUERY_TERMS_WITH_EXPANSIONS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'DROP FUNCTION travel_query_terms(text, integer, text[], text[], text[], real[], text[], integer)',
    );
    await queryRunner.query('DROP FUNCTION travel_term_forms(text)');
  }
}

const TERM_FORMS_FUNCTION = `
CREATE FUNCTION travel_term_forms(phrase text) RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE STRICT
RETURN (
  WITH w AS (
    SELECT n, ARRAY[t, coalesce((ts_lexize('travel_fr_stem', t))[1], t),
      coalesce((ts_lexize('travel_de_stem', t))[1], t), coalesce((ts_lexize('travel_en_stem', t))[1], t)] AS forms
    FROM unnest(string_to_array(phrase, ' ')) WITH ORDINALITY x(t, n)
    WHERE t <> ''
  )
  SELECT CASE WHEN count(*) = 1 THEN (SELECT forms FROM w)
    ELSE (SELECT array_agg(a.forms[k] || ' ' || b.forms[k]) FROM w a JOIN w b ON b.n = a.n + 1, generate_series(1, 4) k)
  END
  FROM w
)`;

/** AddTextSide's travel_query_terms, plus the expansions (the last statement of its body). */
const QUERY_TERMS_WITH_EXPANSIONS = `
CREATE FUNCTION travel_query_terms(search text, max_words integer, known_words text[],
  expansion_tokens text[], expansion_terms text[], expansion_weights real[], expansion_kinds text[],
  max_expansions integer)
RETURNS TABLE (word integer, term text, documents integer, weight real, kind text)
LANGUAGE plpgsql STABLE ROWS 20 AS $fn$
#variable_conflict use_column
DECLARE
  words text[];
  token text;
  i integer;
  found integer;
  variants text[];
  previous text[];
  stop boolean;
  previous_stop boolean := false;
  split record;
BEGIN
  SELECT coalesce(array_agg(t ORDER BY n), '{}') INTO words FROM (
    SELECT t, n FROM regexp_split_to_table(travel_fold(search), '[^[:alnum:]]+') WITH ORDINALITY x(t, n)
    WHERE t <> '' ORDER BY n LIMIT max_words
  ) tokens;
  FOR i IN 1 .. coalesce(array_length(words, 1), 0) LOOP
    token := words[i];
    variants := ARRAY[
      token,
      coalesce((ts_lexize('travel_fr_stem', token))[1], token),
      coalesce((ts_lexize('travel_de_stem', token))[1], token),
      coalesce((ts_lexize('travel_en_stem', token))[1], token)
    ];
    stop := ts_lexize('french_stem', token) = '{}' OR ts_lexize('german_stem', token) = '{}'
      OR ts_lexize('english_stem', token) = '{}';
    -- pairs of adjacent words, as the index pairs them (the same stemmer on both words)
    IF previous IS NOT NULL AND NOT stop AND NOT previous_stop THEN
      RETURN QUERY SELECT 1000 + i, s.term::text, s.documents, 0.5::real, 'phrase'::text
        FROM search_terms s
        WHERE s.term = ANY (ARRAY[previous[1] || ' ' || variants[1], previous[2] || ' ' || variants[2],
          previous[3] || ' ' || variants[3], previous[4] || ' ' || variants[4]]);
    END IF;
    previous := variants;
    previous_stop := stop;
    IF token = ANY (words[1:i - 1]) THEN CONTINUE; END IF;
    IF stop THEN
      RETURN QUERY SELECT i, s.term::text, s.documents, 0.1::real, 'stop'::text
        FROM search_terms s WHERE s.term = ANY (variants);
      CONTINUE;
    END IF;
    RETURN QUERY SELECT i, s.term::text, s.documents, 1::real, 'exact'::text
      FROM search_terms s WHERE s.term = ANY (variants);
    GET DIAGNOSTICS found = ROW_COUNT;
    IF found > 0 THEN CONTINUE; END IF;
    -- a word the glossary knows is neither a typo nor an unknown compound: its expansions stand in
    IF token = ANY (known_words) THEN CONTINUE; END IF;
    IF length(token) >= 5 THEN
      RETURN QUERY SELECT i, c.term::text, c.documents, (CASE c.edits WHEN 1 THEN 0.6 ELSE 0.4 END)::real, 'typo'::text
        FROM (
          SELECT s.term, s.documents, least(levenshtein(s.term, variants[1]), levenshtein(s.term, variants[2]),
              levenshtein(s.term, variants[3]), levenshtein(s.term, variants[4])) AS edits
          FROM search_terms s
          WHERE (s.term % variants[1] OR s.term % variants[2] OR s.term % variants[3] OR s.term % variants[4])
            AND strpos(s.term, ' ') = 0
        ) c
        WHERE c.edits <= CASE WHEN length(token) >= 9 THEN 2 ELSE 1 END
        ORDER BY c.edits, c.documents DESC, c.term LIMIT 5;
      GET DIAGNOSTICS found = ROW_COUNT;
      IF found > 0 THEN CONTINUE; END IF;
    END IF;
    IF length(token) >= 6 THEN
      SELECT l.terms AS head, r.terms AS tail INTO split
      FROM generate_series(3, length(token) - 3) AS cut(at)
      CROSS JOIN LATERAL (
        SELECT array_agg(x.term) AS terms, bool_or(x.whole) AS whole FROM (
          SELECT s.term, s.term = substr(token, 1, cut.at) AS whole FROM search_terms s
          WHERE s.term = substr(token, 1, cut.at)
            OR (cut.at >= 4 AND s.term LIKE substr(token, 1, cut.at) || '%' AND strpos(s.term, ' ') = 0)
          ORDER BY s.term = substr(token, 1, cut.at) DESC, s.documents DESC LIMIT 3
        ) x
      ) l
      CROSS JOIN LATERAL (
        SELECT array_agg(y.term) AS terms, bool_or(y.whole) AS whole FROM (
          SELECT s.term, s.term = ANY (tails.forms) AS whole FROM search_terms s,
            (SELECT ARRAY[substr(token, cut.at + 1),
               coalesce((ts_lexize('travel_fr_stem', substr(token, cut.at + 1)))[1], ''),
               coalesce((ts_lexize('travel_de_stem', substr(token, cut.at + 1)))[1], ''),
               coalesce((ts_lexize('travel_en_stem', substr(token, cut.at + 1)))[1], '')] AS forms) tails
          WHERE s.term = ANY (tails.forms)
            OR (strpos(s.term, ' ') = 0 AND (
              (length(tails.forms[1]) >= 4 AND s.term LIKE '%' || tails.forms[1])
              OR (length(tails.forms[2]) >= 4 AND s.term LIKE '%' || tails.forms[2])
              OR (length(tails.forms[3]) >= 4 AND s.term LIKE '%' || tails.forms[3])
              OR (length(tails.forms[4]) >= 4 AND s.term LIKE '%' || tails.forms[4])))
          ORDER BY s.term = ANY (tails.forms) DESC, s.documents DESC LIMIT 3
        ) y
      ) r
      WHERE l.terms IS NOT NULL AND r.terms IS NOT NULL
      -- whole words first, then the most balanced split
      ORDER BY l.whole::int + r.whole::int DESC, l.whole DESC, least(cut.at, length(token) - cut.at) DESC, cut.at
      LIMIT 1;
      IF split.head IS NOT NULL THEN
        RETURN QUERY SELECT i, s.term::text, s.documents, 0.8::real, 'compound'::text
          FROM search_terms s WHERE s.term = ANY (split.head);
        RETURN QUERY SELECT -i, s.term::text, s.documents, 0.8::real, 'compound'::text
          FROM search_terms s WHERE s.term = ANY (split.tail);
      END IF;
    END IF;
  END LOOP;
  -- expansions: terms of the query word they came from, looked up as the query's own words are
  -- (folded, stemmed in the three languages; a phrase as its pairs of adjacent words), never one
  -- of that word's own forms; per query word the max_expansions weighing most, then held by the
  -- most offers (a concept's common words in each language before its rare ones)
  RETURN QUERY
    SELECT x.at, x.term, x.documents, x.weight, x.kind FROM (
      SELECT y.*, row_number() OVER (PARTITION BY y.at ORDER BY y.weight DESC, y.documents DESC, y.term) AS n
      FROM (
        SELECT DISTINCT ON (w.at, s.term) w.at, s.term::text AS term, s.documents, e.weight, e.kind
        FROM unnest(expansion_tokens, expansion_terms, expansion_weights, expansion_kinds) e(token, expansion, weight, kind)
        CROSS JOIN LATERAL (SELECT array_position(words, e.token) AS at) w
        JOIN search_terms s ON s.term = ANY (travel_term_forms(e.expansion))
        WHERE w.at IS NOT NULL AND s.term <> ALL (travel_term_forms(e.token))
        ORDER BY w.at, s.term, e.weight DESC
      ) y
    ) x
    WHERE x.n <= max_expansions;
END
$fn$`;
