import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The text index's generation (issue 36; apps/search/README.md, "The text index in memory"):
 * `search_stats.generation` takes a new number from the sequence `search_index_generation` each
 * time a reindex that changed something rewrites `search_stats` (in its apply transaction), so a
 * replica holding the text index in memory knows when to load it again, and a search knows whether
 * what it reads from the database is the catalogue its in-memory index was loaded from.
 */
export class AddIndexGeneration1795900000000 implements MigrationInterface {
  name = 'AddIndexGeneration1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE SEQUENCE search_index_generation');
    await queryRunner.query(
      "ALTER TABLE search_stats ADD COLUMN generation bigint NOT NULL DEFAULT nextval('search_index_generation')",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE search_stats DROP COLUMN generation');
    await queryRunner.query('DROP SEQUENCE search_index_generation');
  }
}
