import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The text index in the form a replica loads (issue 36; apps/search/README.md, "The text index in
 * memory"): one row per term, its postings as two byte strings in offer-ordinal order (an offer's
 * ordinal is its position among the catalogue's ids in byte order): the ordinals as big-endian
 * 4-byte integers (`int4send`) and the impacts as big-endian 4-byte floats (`float4send`). A replica
 * then reads about 30,000 rows instead of aggregating 5.7 million postings at 100,000 offers. The
 * reindex rewrites the blocks in the apply transaction that takes a new generation (ordinals move
 * when offers come and go); stored uncompressed (EXTERNAL): postings do not compress, and a load
 * would pay for the attempt. Built here for the catalogue already indexed.
 */
export class AddPostingBlocks1796000000000 implements MigrationInterface {
  name = 'AddPostingBlocks1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE search_posting_blocks (
         term text COLLATE "C" PRIMARY KEY,
         ordinals bytea NOT NULL,
         impacts bytea NOT NULL
       )`,
    );
    await queryRunner.query('ALTER TABLE search_posting_blocks ALTER COLUMN ordinals SET STORAGE EXTERNAL');
    await queryRunner.query('ALTER TABLE search_posting_blocks ALTER COLUMN impacts SET STORAGE EXTERNAL');
    await queryRunner.query(
      `INSERT INTO search_posting_blocks (term, ordinals, impacts)
       SELECT p.term, string_agg(int4send(o.ordinal), ''::bytea ORDER BY o.ordinal),
         string_agg(float4send(p.impact), ''::bytea ORDER BY o.ordinal)
       FROM search_postings p
       JOIN (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ordinal FROM travel_offers) o
         ON o.id = p.offer_id
       GROUP BY p.term`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE search_posting_blocks');
  }
}
