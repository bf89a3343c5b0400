import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The activation codes feature: batches (with their per-organization counter), codes and their
 * history. Generated, plus by hand: pg_trgm and the trigram index of the infix search, and the
 * listing's ordered indexes (DESC, which TypeORM's @Index cannot write).
 */
export class ActivationCodes1795551618513 implements MigrationInterface {
  name = 'ActivationCodes1795551618513';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // By hand: the infix search on full_code (ILIKE '%…%') uses a trigram GIN index.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE TABLE "activation_code_batches" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "batch_number" integer NOT NULL, "internal_note" text, "expires_at" TIMESTAMP WITH TIME ZONE, "created_by_user_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "activation_code_batches_organization_number_unique" UNIQUE ("organization_id", "batch_number"), CONSTRAINT "PK_83618d17dcac662cb9224c39aa7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "activation_code_batches_created_idx" ON "activation_code_batches" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "activation_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "full_code" character varying(14) NOT NULL, "organization_id" uuid NOT NULL, "batch_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "purchased_at" TIMESTAMP WITH TIME ZONE, "used_at" TIMESTAMP WITH TIME ZONE, "cancelled_at" TIMESTAMP WITH TIME ZONE, "reimbursed_at" TIMESTAMP WITH TIME ZONE, "claimed_by_user_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "activation_codes_full_code_unique" UNIQUE ("full_code"), CONSTRAINT "PK_a72dbbeaa882b981dde20ccefc9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "activation_codes_claimed_by_idx" ON "activation_codes" ("claimed_by_user_id") WHERE "claimed_by_user_id" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "activation_codes_batch_idx" ON "activation_codes" ("batch_id") `);
    await queryRunner.query(
      `CREATE TABLE "activation_code_batch_counters" ("organization_id" uuid NOT NULL, "last_batch_number" integer NOT NULL, CONSTRAINT "PK_1da75fb82988da2f8ab2eb5fd02" PRIMARY KEY ("organization_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "activation_code_events" ("id" BIGSERIAL NOT NULL, "code_id" uuid NOT NULL, "action" character varying(32) NOT NULL, "from_status" character varying(16), "to_status" character varying(16) NOT NULL, "actor_user_id" uuid, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "details" jsonb, CONSTRAINT "activation_code_events_action_check" CHECK ("action" IN ('generate', 'claim', 'cancel', 'reimburse', 'renew', 'change_expiration')), CONSTRAINT "PK_d0d01b4229c15405b0c30b9e2bb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "activation_code_events_code_idx" ON "activation_code_events" ("code_id", "at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_batches" ADD CONSTRAINT "FK_03e4137f6ff2def9d1a1bd7f7f5" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_batches" ADD CONSTRAINT "FK_47a894bd0ded2d434d0d5168d9b" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_codes" ADD CONSTRAINT "FK_9e98dd48e33aadca0a4489f9431" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_codes" ADD CONSTRAINT "FK_b8662f5cf6e1eddaaa566a5fc0d" FOREIGN KEY ("batch_id") REFERENCES "activation_code_batches"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_codes" ADD CONSTRAINT "FK_473128986feb079d8e5b1284f86" FOREIGN KEY ("claimed_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_batch_counters" ADD CONSTRAINT "FK_1da75fb82988da2f8ab2eb5fd02" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" ADD CONSTRAINT "FK_0cc1f7461622172e0d67a7a53fd" FOREIGN KEY ("code_id") REFERENCES "activation_codes"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" ADD CONSTRAINT "FK_01d4520205a988e99fed1eb186f" FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    // By hand (synchronize: false on the entity).
    await queryRunner.query(
      `CREATE INDEX "activation_codes_full_code_trgm_idx" ON "activation_codes" USING gin ("full_code" gin_trgm_ops)`,
    );
    // The listing's order: created_at DESC, full_code (per organization, and over all codes).
    await queryRunner.query(
      `CREATE INDEX "activation_codes_organization_created_idx" ON "activation_codes" ("organization_id", "created_at" DESC, "full_code")`,
    );
    await queryRunner.query(
      `CREATE INDEX "activation_codes_created_idx" ON "activation_codes" ("created_at" DESC, "full_code")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."activation_codes_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."activation_codes_organization_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."activation_codes_full_code_trgm_idx"`);
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" DROP CONSTRAINT "FK_01d4520205a988e99fed1eb186f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" DROP CONSTRAINT "FK_0cc1f7461622172e0d67a7a53fd"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_batch_counters" DROP CONSTRAINT "FK_1da75fb82988da2f8ab2eb5fd02"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_codes" DROP CONSTRAINT "FK_473128986feb079d8e5b1284f86"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_codes" DROP CONSTRAINT "FK_b8662f5cf6e1eddaaa566a5fc0d"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_codes" DROP CONSTRAINT "FK_9e98dd48e33aadca0a4489f9431"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_batches" DROP CONSTRAINT "FK_47a894bd0ded2d434d0d5168d9b"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_batches" DROP CONSTRAINT "FK_03e4137f6ff2def9d1a1bd7f7f5"`,
    );
    await queryRunner.query(`DROP INDEX "public"."activation_code_events_code_idx"`);
    await queryRunner.query(`DROP TABLE "activation_code_events"`);
    await queryRunner.query(`DROP TABLE "activation_code_batch_counters"`);
    await queryRunner.query(`DROP INDEX "public"."activation_codes_batch_idx"`);
    await queryRunner.query(`DROP INDEX "public"."activation_codes_claimed_by_idx"`);
    await queryRunner.query(`DROP TABLE "activation_codes"`);
    await queryRunner.query(`DROP INDEX "public"."activation_code_batches_created_idx"`);
    await queryRunner.query(`DROP TABLE "activation_code_batches"`);
  }
}
