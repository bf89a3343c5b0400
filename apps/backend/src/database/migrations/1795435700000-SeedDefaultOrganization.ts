import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The one organization flagged default (docs/backend-api.md: `GET /organizations/default`, "seeded").
 * Seeded by a migration so that every environment has it exactly once; it can be renamed later.
 */
export class SeedDefaultOrganization1795435700000 implements MigrationInterface {
  name = 'SeedDefaultOrganization1795435700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `INSERT INTO "organizations" ("name", "type", "status", "is_default")
       SELECT 'Default organization', 'reseller', 'approved', true
       WHERE NOT EXISTS (SELECT 1 FROM "organizations" WHERE "is_default")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "organizations" WHERE "is_default"`);
  }
}
