import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users, organizations (what viewing hats need of them), memberships, sign-in tokens, password
 * reset tokens and the shared throttling counters. Generated, plus the hand-written unique index
 * on lower(email) (an expression index, which TypeORM cannot express; the entity marks it
 * `synchronize: false`).
 */
export class UsersSessionsHats1795435623177 implements MigrationInterface {
  name = 'UsersSessionsHats1795435623177';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" character varying(255) NOT NULL, "password_hash" text, "first_name" character varying(255) NOT NULL, "last_name" character varying(255) NOT NULL, "preferred_language" character varying(8) NOT NULL, "is_super_admin" boolean NOT NULL DEFAULT false, "profile_picture_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "users_preferred_language_check" CHECK ("preferred_language" IN ('fr-ch', 'ge-ch', 'en-gb')), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_lower_unique" ON "users" (lower("email"))`);
    await queryRunner.query(
      `CREATE TABLE "organizations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "type" character varying(16) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "is_default" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "organizations_status_check" CHECK ("status" IN ('pending', 'approved', 'suspended')), CONSTRAINT "organizations_type_check" CHECK ("type" IN ('reseller', 'region')), CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "organizations_single_default" ON "organizations" ("is_default") WHERE "is_default"`,
    );
    await queryRunner.query(
      `CREATE TABLE "memberships" ("user_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "role" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "memberships_role_check" CHECK ("role" IN ('manager', 'member')), CONSTRAINT "PK_d43d9c8d18fcd49de0fa44bbd79" PRIMARY KEY ("user_id", "organization_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "memberships_organization_id_idx" ON "memberships" ("organization_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "password_reset_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "token_hash" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "password_reset_tokens_purpose_check" CHECK ("purpose" IN ('reset', 'invitation')), CONSTRAINT "PK_d16bebd73e844c48bca50ff8d3d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "password_reset_tokens_user_id_idx" ON "password_reset_tokens" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "personal_access_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "device_name" character varying(255) NOT NULL, "token_hash" character varying(64) NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b6dc462fa11dbbb897eb8419735" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "personal_access_tokens_user_id_idx" ON "personal_access_tokens" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "throttle_counters" ("key" character varying(64) NOT NULL, "hits" integer NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "blocked_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_0d6e00f6811746d8c018db8d58d" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "throttle_counters_expires_at_idx" ON "throttle_counters" ("expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_7c1e2fdfed4f6838e0c05ae5051" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_e5380c394ec7912046d07b54290" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "FK_52ac39dd8a28730c63aeb428c9c" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "FK_705e457b9b167e4779e737ca3ef" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "personal_access_tokens" DROP CONSTRAINT "FK_705e457b9b167e4779e737ca3ef"`,
    );
    await queryRunner.query(
      `ALTER TABLE "password_reset_tokens" DROP CONSTRAINT "FK_52ac39dd8a28730c63aeb428c9c"`,
    );
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "FK_e5380c394ec7912046d07b54290"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "FK_7c1e2fdfed4f6838e0c05ae5051"`);
    await queryRunner.query(`DROP INDEX "public"."throttle_counters_expires_at_idx"`);
    await queryRunner.query(`DROP TABLE "throttle_counters"`);
    await queryRunner.query(`DROP INDEX "public"."personal_access_tokens_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "personal_access_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."password_reset_tokens_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "password_reset_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."memberships_organization_id_idx"`);
    await queryRunner.query(`DROP TABLE "memberships"`);
    await queryRunner.query(`DROP INDEX "public"."organizations_single_default"`);
    await queryRunner.query(`DROP TABLE "organizations"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_lower_unique"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
