import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The text side of a search engine (issue 16; apps/search/README.md, "The text side"):
 *
 * - `travel_fold(text)`: lower case, accents off (`unaccent`, which also turns `ß` into `ss`), and
 *   the German transliterations folded (`ae`, `oe`, `ue` → `a`, `o`, `u`), so "Zürich", "Zurich"
 *   and "Zuerich" are one word. Applied to the catalogue and to queries alike.
 * - Stemmers without stop words for French, German and English (`travel_fr`, `travel_de`,
 *   `travel_en`: snowball on folded words); a record is stemmed in its own `language` (`simple`,
 *   no stemming, when it gives none); a query is stemmed in all three.
 * - `search_vector` rebuilt from folded text: name (weight A), destination and first category
 *   (the theme: its name and slug) (B), the other categories (C), description (D).
 * - `search_postings`: the inverted index the text side scores from without reading a record: per
 *   (term, offer) the field-weighted term frequency `tf` and the offer's weighted length `dl`; terms
 *   are the lexemes and the pairs of adjacent lexemes of one field ("ski zermatt"), so words that
 *   stand together as in the query score more. `search_terms` (the vocabulary, how many offers hold
 *   each term) and `search_stats` (offers, average length) are derived from it by each reindex.
 * - `fuzzystrmatch` (levenshtein) checks typo candidates found through the trigram index.
 * - `travel_query_terms(search, max_words)`: the terms a search is scored with (query-terms
 *   function below).
 */
export class AddTextSide1795600000000 implements MigrationInterface {
  name = 'AddTextSide1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS fuzzystrmatch');
    await queryRunner.query(`
      CREATE FUNCTION travel_fold(input text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      RETURN replace(replace(replace(lower(unaccent('unaccent'::regdictionary, input)), 'ae', 'a'), 'oe', 'o'), 'ue', 'u')`);
    for (const [code, language] of [
      ['fr', 'french'],
      ['de', 'german'],
      ['en', 'english'],
    ]) {
      await queryRunner.query(
        `CREATE TEXT SEARCH DICTIONARY travel_${code}_stem (TEMPLATE = snowball, Language = ${language})`,
      );
      await queryRunner.query(`CREATE TEXT SEARCH CONFIGURATION travel_${code} (COPY = simple)`);
      await queryRunner.query(
        `ALTER TEXT SEARCH CONFIGURATION travel_${code}
           ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH travel_${code}_stem`,
      );
    }
    await queryRunner.query(`
      CREATE FUNCTION travel_language_config(language text) RETURNS regconfig
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN CASE lower(language) WHEN 'fr' THEN 'travel_fr'::regconfig WHEN 'de' THEN 'travel_de'::regconfig
        WHEN 'en' THEN 'travel_en'::regconfig ELSE 'simple'::regconfig END`);
    // Category names and slugs: the first category (the offer's theme) beside the destination
    // (weight B), the others on their own (C).
    await queryRunner.query(`
      CREATE FUNCTION travel_category_text(record jsonb, first boolean) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN (SELECT string_agg(concat_ws(' ', c ->> 'name', c ->> 'slug'), ' ' ORDER BY n)
              FROM jsonb_array_elements(CASE jsonb_typeof(record -> 'categories') WHEN 'array'
                THEN record -> 'categories' ELSE '[]'::jsonb END) WITH ORDINALITY x(c, n)
              WHERE jsonb_typeof(c) = 'object' AND (n = 1) = first)`);
    await queryRunner.query('ALTER TABLE travel_offers DROP COLUMN search_vector');
    await queryRunner.query(`
      ALTER TABLE travel_offers ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector(travel_language_config(record ->> 'language'), travel_fold(name)), 'A')
        || setweight(to_tsvector(travel_language_config(record ->> 'language'),
             travel_fold(coalesce(destination_name, '') || ' ' || coalesce(travel_category_text(record, true), ''))), 'B')
        || setweight(to_tsvector(travel_language_config(record ->> 'language'),
             travel_fold(coalesce(travel_category_text(record, false), ''))), 'C')
        || setweight(to_tsvector(travel_language_config(record ->> 'language'), travel_fold(coalesce(description, ''))), 'D')
      ) STORED`);
    await queryRunner.query(
      'CREATE INDEX travel_offers_search_vector_idx ON travel_offers USING gin (search_vector)',
    );

    await queryRunner.query(`
      CREATE TABLE search_postings (
        term text COLLATE "C" NOT NULL,
        offer_id text COLLATE "C" NOT NULL,
        tf real NOT NULL,
        dl real NOT NULL
      )`);
    // The text side reads postings by term with index-only scans; a reindex deletes by offer.
    await queryRunner.query(
      'CREATE INDEX search_postings_term_idx ON search_postings (term, offer_id) INCLUDE (tf, dl)',
    );
    await queryRunner.query('CREATE INDEX search_postings_offer_idx ON search_postings (offer_id)');
    await queryRunner.query(`
      CREATE TABLE search_stats (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        offers integer NOT NULL,
        average_length real NOT NULL
      )`);
    // Typo candidates are single words: the trigram index leaves the pairs out.
    await queryRunner.query('DROP INDEX search_terms_trigram_idx');
    await queryRunner.query(
      `CREATE INDEX search_terms_trigram_idx ON search_terms USING gin (term gin_trgm_ops) WHERE strpos(term, ' ') = 0`,
    );
    await queryRunner.query(QUERY_TERMS_FUNCTION);

    // The catalogue already indexed (a reindex keeps them up to date from now on).
    await queryRunner.query(`INSERT INTO search_postings (term, offer_id, tf, dl) ${POSTINGS_OF_ALL}`);
    await queryRunner.query('DELETE FROM search_terms');
    await queryRunner.query(
      'INSERT INTO search_terms (term, documents) SELECT term, count(*) FROM search_postings GROUP BY term',
    );
    await queryRunner.query(
      `INSERT INTO search_stats (offers, average_length)
       SELECT count(*), coalesce(avg(dl), 1) FROM (SELECT offer_id, max(dl) AS dl FROM search_postings GROUP BY offer_id) d`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION travel_query_terms(text, integer)');
    await queryRunner.query('DROP TABLE search_stats');
    await queryRunner.query('DROP TABLE search_postings');
    await queryRunner.query('DROP INDEX search_terms_trigram_idx');
    await queryRunner.query(
      'CREATE INDEX search_terms_trigram_idx ON search_terms USING gin (term gin_trgm_ops)',
    );
    await queryRunner.query('ALTER TABLE travel_offers DROP COLUMN search_vector');
    await queryRunner.query(`
      ALTER TABLE travel_offers ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('travel_search'::regconfig, name), 'A')
        || setweight(to_tsvector('travel_search'::regconfig, coalesce(destination_name, '')), 'B')
        || setweight(to_tsvector('travel_search'::regconfig, coalesce(description, '')), 'C')
      ) STORED`);
    await queryRunner.query(
      'CREATE INDEX travel_offers_search_vector_idx ON travel_offers USING gin (search_vector)',
    );
    await queryRunner.query('DELETE FROM search_terms');
    await queryRunner.query(
      `INSERT INTO search_terms (term, documents)
       SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM travel_offers')`,
    );
    await queryRunner.query('DROP FUNCTION travel_category_text(jsonb, boolean)');
    await queryRunner.query('DROP FUNCTION travel_language_config(text)');
    for (const code of ['fr', 'de', 'en']) {
      await queryRunner.query(`DROP TEXT SEARCH CONFIGURATION travel_${code}`);
      await queryRunner.query(`DROP TEXT SEARCH DICTIONARY travel_${code}_stem`);
    }
    await queryRunner.query('DROP FUNCTION travel_fold(text)');
    await queryRunner.query('DROP EXTENSION IF EXISTS fuzzystrmatch');
  }
}

/**
 * The postings of the offers `travel_offers o` restricted by `where` (a copy of the reindex's
 * statement in reindex.repository.ts, frozen here as migrations are): each lexeme occurrence
 * weighs 3 in the name, 1.5 in the destination and first category, 0.75 in the other
 * categories, 1 in the description; a pair
 * of adjacent lexemes of one field is a term of its own.
 */
const postingsOf = (where: string) => `
  WITH occurrences AS (
    SELECT o.id, u.lexeme, p.pos, p.weight,
      CASE p.weight WHEN 'A' THEN 3.0 WHEN 'B' THEN 1.5 WHEN 'C' THEN 0.75 ELSE 1.0 END AS boost
    FROM travel_offers o, unnest(o.search_vector) u, unnest(u.positions, u.weights) p(pos, weight)
    ${where}
  ),
  sequence AS (
    SELECT id, lexeme, pos, weight, boost,
      lead(lexeme) OVER w AS next_lexeme, lead(pos) OVER w AS next_pos, lead(weight) OVER w AS next_weight
    FROM occurrences WINDOW w AS (PARTITION BY id ORDER BY pos)
  ),
  terms AS (
    SELECT id, lexeme AS term, boost FROM sequence
    UNION ALL
    SELECT id, lexeme || ' ' || next_lexeme, boost FROM sequence WHERE next_pos = pos + 1 AND next_weight = weight
  ),
  lengths AS (SELECT id, sum(boost) AS dl FROM occurrences GROUP BY id)
  SELECT t.term, t.id, sum(t.boost)::real, l.dl::real FROM terms t JOIN lengths l USING (id) GROUP BY t.term, t.id, l.dl`;

const POSTINGS_OF_ALL = postingsOf('');

/**
 * `travel_query_terms(search, max_words)`: the terms of the index a search is scored with, one row
 * per (query word, term):
 * - `word`: the position of the query word (its first occurrence; at most `max_words` words); a
 *   compound's second part is `-word`; a pair of adjacent query words is `1000 + word`;
 * - `kind` and `weight`: `stop` 0.1 for a stop word of French, German or English (the snowball
 *   lists: "de", "mit", "the"), which never finds an offer on its own; `exact` 1 (the folded word
 *   or its French, German or English stem is in the vocabulary); else `typo` 0.6 / 0.4 (words of 5+ letters: catalogue words within 1 edit, 2
 *   for 9+ letters, found through search_terms_trigram_idx and checked by levenshtein; the 5
 *   closest, most frequent first); else `compound` 0.8 (words of 6+ letters split in two, the first
 *   part a catalogue word or the start of one, the second a catalogue word or the end of one; the
 *   split with the most whole catalogue words, then the longest shorter part); `phrase` 0.5 for pairs of adjacent words (no stop word)
 *   found as pairs in the index.
 */
const QUERY_TERMS_FUNCTION = `
CREATE FUNCTION travel_query_terms(search text, max_words integer)
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
END
$fn$`;
