import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which fields of an offer each posting's term occurs in (issue 48; apps/search/README.md,
 * "Concept coverage"): `search_postings.fields`, a bit per `search_vector` weight (1 the name, 2
 * the destination and first category, 4 the other categories, 8 the description), and the same
 * per posting in the blocks a replica loads (`search_posting_blocks.fields`, a byte each in
 * ordinal order), so that a place a search names is covered only where the offer is (its name or
 * destination), not where its description mentions it. Expand only: both columns are nullable, a
 * reindex of the previous release writes neither, and a replica reads a missing value as every
 * field (the previous ranking). Filled here for the catalogue already indexed, the blocks built
 * again for the generation the database holds.
 */
export class AddPostingFields1796250000000 implements MigrationInterface {
  name = 'AddPostingFields1796250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE search_postings ADD COLUMN fields smallint');
    await queryRunner.query('ALTER TABLE search_posting_blocks ADD COLUMN fields bytea');
    await queryRunner.query('ALTER TABLE search_posting_blocks ALTER COLUMN fields SET STORAGE EXTERNAL');
    await queryRunner.query(
      `WITH occurrences AS (
         SELECT o.id, u.lexeme, p.pos, p.weight,
           CASE p.weight WHEN 'A' THEN 1 WHEN 'B' THEN 2 WHEN 'C' THEN 4 ELSE 8 END AS bit
         FROM travel_offers o, unnest(o.search_vector) u, unnest(u.positions, u.weights) p(pos, weight)
       ),
       sequence AS (
         SELECT id, lexeme, pos, weight, bit,
           lead(lexeme) OVER w AS next_lexeme, lead(pos) OVER w AS next_pos, lead(weight) OVER w AS next_weight
         FROM occurrences WINDOW w AS (PARTITION BY id ORDER BY pos)
       ),
       terms AS (
         SELECT id, lexeme AS term, bit FROM sequence
         UNION ALL
         SELECT id, lexeme || ' ' || next_lexeme, bit FROM sequence WHERE next_pos = pos + 1 AND next_weight = weight
       ),
       fields AS (
         SELECT id, term COLLATE "C" AS term, bit_or(bit)::smallint AS fields FROM terms GROUP BY id, term
       )
       UPDATE search_postings p SET fields = f.fields
       FROM fields f WHERE f.id = p.offer_id AND f.term = p.term`,
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
    await queryRunner.query('ALTER TABLE search_posting_blocks DROP COLUMN fields');
    await queryRunner.query('ALTER TABLE search_postings DROP COLUMN fields');
  }
}
