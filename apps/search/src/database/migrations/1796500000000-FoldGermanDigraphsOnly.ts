import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `travel_fold` folds the German transliterations only where they can be German (issue 62, D-54):
 * on the lower-case text, its `æ` and `œ` written out, before `unaccent`, `ae` → `a`, `oe` → `o` (not before `u`: French
 * `coeur`), `ue` → `u` when its `e` carries no accent (`Suède`, `Québec`) and it follows neither `q`
 * (`Quebec`, `musique`) nor `o` (`jouer`, `Rouen`). AddTextSide's folding replaced every `ae`, `oe`,
 * `ue` after the accents were off: `Suède` became `sude`, which the French stemmer reads as `sud`,
 * and `Québec` `qubec`. The expression is the tokenizer's GERMAN_DIGRAPHS (query/analysis/tokenizer.ts,
 * foldText), written out here so that this migration stays what it was.
 *
 * The stored `search_vector` of every offer is computed again (an update of the row recomputes a
 * generated column; the embedding is kept as it is), and the postings are marked as written by an
 * earlier release (`search_stats.postings_version` emptied): the next reindex rewrites every one
 * from the new vectors without asking for an embedding (reindex.repository.ts, POSTINGS_VERSION),
 * as it does for any postings written before. A migration stays in the database layer: it does not
 * call the reindex's writer (dependency-cruiser's layers). Until that reindex, the text side still
 * reads the old forms of the words the rule changes. During a
 * rolling release, the previous release folds its searches as before: until it is gone, its
 * searches of a word holding such a digraph (`coeur`, `Quebec`) miss the offers' new form.
 */
export class FoldGermanDigraphsOnly1796500000000 implements MigrationInterface {
  name = 'FoldGermanDigraphsOnly1796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(foldFunction(GERMAN_DIGRAPHS_FOLD));
    await rebuild(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(foldFunction(EVERY_DIGRAPH_FOLD));
    await rebuild(queryRunner);
  }
}

/**
 * The folding of this migration: lower case, `æ` and `œ` written out (as typed: `coeur`,
 * `oenotourisme`), the German digraphs (tokenizer.ts, GERMAN_DIGRAPHS), then accents off.
 */
const GERMAN_DIGRAPHS_FOLD = String.raw`unaccent('unaccent'::regdictionary, regexp_replace(
  replace(replace(lower(input), 'æ', 'ae'), 'œ', 'oe'),
  '(a|o(?![eéèêë][\u0300-\u036f]*u))[eéèêë][\u0300-\u036f]*|(?<![oq])(u)e(?![\u0300-\u036f])', '\1\2', 'g'))`;

/** AddTextSide's folding: accents off, then every `ae`, `oe`, `ue`. */
const EVERY_DIGRAPH_FOLD = `replace(replace(replace(lower(unaccent('unaccent'::regdictionary, input)), 'ae', 'a'), 'oe', 'o'), 'ue', 'u')`;

function foldFunction(body: string): string {
  return `CREATE OR REPLACE FUNCTION travel_fold(input text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    RETURN ${body}`;
}

/** Every offer's `search_vector` folded again, and the postings marked for the next reindex to rewrite (none: nothing). */
async function rebuild(queryRunner: QueryRunner): Promise<void> {
  const [{ offers }] = (await queryRunner.query('SELECT count(*)::int AS offers FROM travel_offers')) as {
    offers: number;
  }[];
  if (offers === 0) return;
  await queryRunner.query('UPDATE travel_offers SET name = name');
  await queryRunner.query('UPDATE search_stats SET postings_version = NULL');
}
