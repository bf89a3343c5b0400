import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The consent of an existing account named as a public signup's contact (docs/decisions.md D-78),
 * expand only: the previous release never reads the new tables.
 * - `signup_contact_consents`: a signup waiting for its existing contact account to accept; one
 *   per organization.
 * - `signup_contact_consent_tokens`: the SHA-256 of each consent link's token, single use, with
 *   its expiry.
 */
export class SignupContactConsents1796300000000 implements MigrationInterface {
  name = 'SignupContactConsents1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "signup_contact_consents" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "user_id" uuid NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7cefe955fb9f0efa89bda6ea1ec" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "signup_contact_consents_user_id_idx" ON "signup_contact_consents" ("user_id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "signup_contact_consents_organization_unique" ON "signup_contact_consents" ("organization_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "signup_contact_consent_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "consent_id" uuid NOT NULL, "token_hash" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "outbox_message_id" uuid, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bb0a98ef8187148b0e045216240" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "signup_contact_consent_tokens_consent_id_idx" ON "signup_contact_consent_tokens" ("consent_id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "signup_contact_consent_tokens_token_hash_unique" ON "signup_contact_consent_tokens" ("token_hash")`,
    );
    await queryRunner.query(
      `ALTER TABLE "signup_contact_consents" ADD CONSTRAINT "FK_7c3ebb1a71688744ffb12658158" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "signup_contact_consents" ADD CONSTRAINT "FK_5441555cc552456ac416ffefe5d" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "signup_contact_consent_tokens" ADD CONSTRAINT "FK_542b4cc556c6a7f9ad7ed994618" FOREIGN KEY ("consent_id") REFERENCES "signup_contact_consents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "signup_contact_consent_tokens"`);
    await queryRunner.query(`DROP TABLE "signup_contact_consents"`);
  }
}
