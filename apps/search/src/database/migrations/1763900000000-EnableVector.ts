import { MigrationInterface, QueryRunner } from 'typeorm';

/** pgvector for the offer embeddings (cosine distance `<=>`). */
export class EnableVector1763900000000 implements MigrationInterface {
  name = 'EnableVector1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS vector');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP EXTENSION IF EXISTS vector');
  }
}
