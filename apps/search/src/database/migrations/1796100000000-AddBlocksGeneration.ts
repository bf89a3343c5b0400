import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which generation the posting blocks were built for (`search_stats.blocks_generation`), so that a
 * replica never loads blocks another catalogue wrote. The release before AddPostingBlocks reindexes
 * without rewriting the blocks: during a rolling release its reindex takes a new generation while
 * the blocks stay those of the old one, and a replica of this release must then load the postings
 * themselves (text-index.loader.ts). The blocks are built again here, for the generation the
 * database holds (a reindex of that release may have run since AddPostingBlocks built them).
 */
export class AddBlocksGeneration1796100000000 implements MigrationInterface {
  name = 'AddBlocksGeneration1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE search_stats ADD COLUMN blocks_generation bigint');
    await queryRunner.query('DELETE FROM search_posting_blocks');
    await queryRunner.query(
      `INSERT INTO search_posting_blocks (term, ordinals, impacts)
       SELECT p.term, string_agg(int4send(o.ordinal), ''::bytea ORDER BY o.ordinal),
         string_agg(float4send(p.impact), ''::bytea ORDER BY o.ordinal)
       FROM search_postings p
       JOIN (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ordinal FROM travel_offers) o
         ON o.id = p.offer_id
       GROUP BY p.term`,
    );
    await queryRunner.query('UPDATE search_stats SET blocks_generation = generation');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE search_stats DROP COLUMN blocks_generation');
  }
}
