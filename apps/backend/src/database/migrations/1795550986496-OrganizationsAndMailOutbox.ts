import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organizations feature: description, commercial terms and when the manager was invited; one
 * manager per organization; the mail outbox. Generated.
 */
export class OrganizationsAndMailOutbox1795550986496 implements MigrationInterface {
  name = 'OrganizationsAndMailOutbox1795550986496';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mail_outbox" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "template" character varying(64) NOT NULL, "recipient" character varying(255) NOT NULL, "language" character varying(8) NOT NULL, "payload" jsonb NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "sent_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "mail_outbox_state_check" CHECK ("state" IN ('pending', 'sent', 'failed')), CONSTRAINT "PK_fecc63c96385bc35a39ccf2a72e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" ("next_attempt_at") WHERE "state" = 'pending'`,
    );
    await queryRunner.query(`ALTER TABLE "organizations" ADD "description" text`);
    await queryRunner.query(
      `ALTER TABLE "organizations" ADD "commission" numeric(10,2) NOT NULL DEFAULT '0.00'`,
    );
    await queryRunner.query(
      `ALTER TABLE "organizations" ADD "commission_type" character varying(16) NOT NULL DEFAULT 'percent'`,
    );
    await queryRunner.query(`ALTER TABLE "organizations" ADD "manager_invited_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "organizations_type_name_idx" ON "organizations" ("type", "name", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "memberships_single_manager" ON "memberships" ("organization_id") WHERE "role" = 'manager'`,
    );
    await queryRunner.query(
      `ALTER TABLE "organizations" ADD CONSTRAINT "organizations_commission_check" CHECK ("commission" >= 0)`,
    );
    await queryRunner.query(
      `ALTER TABLE "organizations" ADD CONSTRAINT "organizations_commission_type_check" CHECK ("commission_type" IN ('percent', 'fixed'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organizations" DROP CONSTRAINT "organizations_commission_type_check"`,
    );
    await queryRunner.query(`ALTER TABLE "organizations" DROP CONSTRAINT "organizations_commission_check"`);
    await queryRunner.query(`DROP INDEX "public"."memberships_single_manager"`);
    await queryRunner.query(`DROP INDEX "public"."organizations_type_name_idx"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "manager_invited_at"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "commission_type"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "commission"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "description"`);
    await queryRunner.query(`DROP INDEX "public"."mail_outbox_due_idx"`);
    await queryRunner.query(`DROP TABLE "mail_outbox"`);
  }
}
