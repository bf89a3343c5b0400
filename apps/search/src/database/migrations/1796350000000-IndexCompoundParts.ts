import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The text side's index of D-86 (apps/search/README.md, "Compounds" and "Concept coverage"):
 *
 * - `search_postings.fields` gains a bit (16) for a term in the offer's destination: weight B of
 *   `search_vector` holds the destination and the first category, and the frequent-word rule
 *   counts an offer only where it holds the term outside its categories. Filled here for the
 *   postings already written (a B occurrence whose lexeme is one of the destination's; a pair when
 *   both its words are), and in the blocks a replica loads, rebuilt for the generation the database
 *   holds. A posting without the bit (written by the previous release during a rolling release)
 *   reads as outside the destination: only the frequency of a word held in a destination alone is
 *   then lower, until the next reindex.
 * - `search_stats.postings_version`: what the postings hold (2: the offers' compound words split
 *   at index time, written by the reindex with the query's splitter, which SQL cannot run). Null
 *   here: the next reindex rewrites every posting, even when the catalogue did not change. The
 *   previous release neither reads nor writes it (its reindex replaces the row without it, and the
 *   next reindex of this release rewrites the postings again).
 *
 * Expand only: nothing the previous release reads changes meaning (it tests the fields against the
 * name and destination bits alone).
 */
export class IndexCompoundParts1796350000000 implements MigrationInterface {
  name = 'IndexCompoundParts1796350000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE search_stats ADD COLUMN postings_version smallint');
    await queryRunner.query(
      `WITH destinations AS (
         SELECT o.id, tsvector_to_array(to_tsvector(travel_language_config(o.record ->> 'language'),
           travel_fold(coalesce(o.destination_name, '')))) AS lexemes
         FROM travel_offers o WHERE o.destination_name IS NOT NULL
       )
       UPDATE search_postings p SET fields = p.fields | 16
       FROM destinations d
       WHERE d.id = p.offer_id AND p.fields & 2 <> 0
         AND string_to_array(p.term, ' ') <@ d.lexemes`,
    );
    await queryRunner.query('DELETE FROM search_posting_blocks');
    await queryRunner.query(
      `INSERT INTO search_posting_blocks (term, ordinals, impacts, fields)
       SELECT p.term, string_agg(int4send(o.ordinal), ''::bytea ORDER BY o.ordinal),
         string_agg(float4send(p.impact), ''::bytea ORDER BY o.ordinal),
         string_agg(set_byte('\\x00'::bytea, 0, coalesce(p.fields, 255)), ''::bytea ORDER BY o.ordinal)
       FROM search_postings p
       JOIN (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ordinal FROM travel_offers) o
         ON o.id = p.offer_id
       GROUP BY p.term`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE search_stats DROP COLUMN postings_version');
  }
}
