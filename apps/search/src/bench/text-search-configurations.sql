-- Text search configurations compared on the indexed demo catalogue (docs/benchmarks.md,
-- "Text search configuration"). Run against a database indexed with generated:2000, e.g.
--   psql "$DATABASE_URL" -f apps/search/src/bench/text-search-configurations.sql
-- It creates three scratch configurations (english_unaccent, french_unaccent, german_unaccent).
BEGIN;
DROP TEXT SEARCH CONFIGURATION IF EXISTS french_unaccent;
 DROP TEXT SEARCH CONFIGURATION IF EXISTS german_unaccent;
 DROP TEXT SEARCH CONFIGURATION IF EXISTS english_unaccent;

CREATE TEXT SEARCH CONFIGURATION french_unaccent (COPY = french);
ALTER TEXT SEARCH CONFIGURATION french_unaccent ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, french_stem;
CREATE TEXT SEARCH CONFIGURATION german_unaccent (COPY = german);
ALTER TEXT SEARCH CONFIGURATION german_unaccent ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, german_stem;
CREATE TEXT SEARCH CONFIGURATION english_unaccent (COPY = english);
ALTER TEXT SEARCH CONFIGURATION english_unaccent ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, english_stem;
-- Which text search configuration finds accent-free queries in the mixed-language demo catalogue?
CREATE TEMP TABLE docs AS
SELECT id, name || ' ' || coalesce(destination_name, '') || ' ' || coalesce(description, '') AS body FROM travel_offers;
CREATE TEMP TABLE words(q text);
INSERT INTO words VALUES ('zurich'),('geneve'),('kobenhavn'),('malaga'),('cordoba'),('reykjavik'),('tromso'),('sejour'),('randonnee'),('croisiere'),('decouverte'),('cafes'),('musees'),('fruhstuck'),('uber'),('kuche'),('gruppen'),('museums'),('hiking'),('la digue'),('cote d azur'),('hotels'),('saint'),('wellness');
CREATE TEMP TABLE truth AS
SELECT w.q, d.id FROM words w JOIN docs d
  ON (' ' || regexp_replace(lower(unaccent(d.body)), '[^a-z0-9]+', ' ', 'g') || ' ') LIKE '% ' || w.q || ' %';
WITH configs(cfg) AS (VALUES ('simple'::regconfig), ('travel_search'), ('english'), ('french'), ('german'), ('english_unaccent'), ('french_unaccent'), ('german_unaccent')),
hits AS (
  SELECT c.cfg, w.q, d.id FROM configs c CROSS JOIN words w JOIN docs d
    ON to_tsvector(c.cfg, d.body) @@ phraseto_tsquery(c.cfg, w.q)
)
SELECT c.cfg,
  (SELECT count(*) FROM truth) AS relevant,
  (SELECT count(*) FROM hits h JOIN truth t USING (q, id) WHERE h.cfg = c.cfg) AS found,
  round(100.0 * (SELECT count(*) FROM hits h JOIN truth t USING (q, id) WHERE h.cfg = c.cfg) / (SELECT count(*) FROM truth), 1) AS recall_pct,
  (SELECT count(*) FROM hits h WHERE h.cfg = c.cfg AND NOT EXISTS (SELECT 1 FROM truth t WHERE t.q = h.q AND t.id = h.id)) AS extra,
  (SELECT count(DISTINCT q) FROM words w WHERE NOT EXISTS (SELECT 1 FROM hits h WHERE h.cfg = c.cfg AND h.q = w.q) AND EXISTS (SELECT 1 FROM truth t WHERE t.q = w.q)) AS queries_with_nothing
FROM configs c;
SELECT q, count(*) AS relevant FROM truth GROUP BY q ORDER BY q;
ROLLBACK;
