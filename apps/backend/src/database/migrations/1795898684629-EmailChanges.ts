import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Confirmed email changes (docs/decisions.md D-70), expand only: the previous release runs on this
 * schema unchanged (it never reads the new tables, and leaves `confirmed_email` as it is).
 * - `users.confirmed_email`: the address the user proved to read. Backfilled for every account
 *   that has a password: a password is only ever set through a reset or invitation link mailed to
 *   the account's address, or by an operator (`user:create-admin`, the demo seed), so those
 *   addresses were confirmed, except one changed by the old `PUT /user` after its password was
 *   set, which no stored history tells apart (the decision record says what that leaves).
 *   Accounts without a password (invited, signup contacts) stay unconfirmed until they use a link.
 * - `email_changes`: a change asked by `PUT /user`, pending until the new address confirms it.
 * - `email_change_tokens`: the SHA-256 of each link's token (confirmation, report), single use.
 */
export class EmailChanges1795898684629 implements MigrationInterface {
  name = 'EmailChanges1795898684629';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "confirmed_email" character varying(255)`);
    await queryRunner.query(
      `UPDATE "users" SET "confirmed_email" = "email" WHERE "password_hash" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "email_changes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "old_email" character varying(255) NOT NULL, "new_email" character varying(255) NOT NULL, "requested_by_token_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "report_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "cancelled_at" TIMESTAMP WITH TIME ZONE, "reported_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6626b2af49c359b24442c10bbb1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "email_changes_user_id_idx" ON "email_changes" ("user_id")`);
    await queryRunner.query(
      `ALTER TABLE "email_changes" ADD CONSTRAINT "FK_38edd6558e3b8386e9297c2636e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "email_change_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email_change_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "token_hash" character varying(64) NOT NULL, "outbox_message_id" uuid, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "email_change_tokens_purpose_check" CHECK ("purpose" IN ('confirm', 'report')), CONSTRAINT "PK_43a95c314ab2d2cece393b2d899" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "email_change_tokens_email_change_id_idx" ON "email_change_tokens" ("email_change_id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "email_change_tokens_token_hash_unique" ON "email_change_tokens" ("token_hash")`,
    );
    await queryRunner.query(
      `ALTER TABLE "email_change_tokens" ADD CONSTRAINT "FK_1b20fcdb060fa09d95d3fc2956c" FOREIGN KEY ("email_change_id") REFERENCES "email_changes"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "email_change_tokens"`);
    await queryRunner.query(`DROP TABLE "email_changes"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "confirmed_email"`);
  }
}
