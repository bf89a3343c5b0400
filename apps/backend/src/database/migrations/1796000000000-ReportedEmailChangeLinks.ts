import { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalEmail } from '../../users/email-address';

/**
 * A report wins over what followed its change (docs/decisions.md D-70, D-26), expand only: the
 * previous release runs on this schema unchanged (it never reads the new columns).
 * - `password_reset_tokens.email`: the address the link was mailed to; a token works only while the
 *   account's email is that one. Existing rows get the account's current email (their emails went
 *   to it, or the account changed address since, which the previous release did not track). Rows
 *   the previous release writes during its rollout have none and are honoured as before.
 * - `email_changes.report_ended_at`: when a report ended the report link of this change (its own,
 *   or one of an earlier change of the user). Reports made before get their own time.
 * - `email_changes.old_email_canonical`: the canonical form of the old address (D-77), computed by
 *   the application's function, on which the addresses reserved while their report link works are
 *   looked up. Rows the previous release writes during its rollout have none: they reserve nothing,
 *   as that release never did.
 */
export class ReportedEmailChangeLinks1796000000000 implements MigrationInterface {
  name = 'ReportedEmailChangeLinks1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "password_reset_tokens" ADD "email" character varying(255)`);
    await queryRunner.query(
      `UPDATE "password_reset_tokens" t SET "email" = u."email" FROM "users" u WHERE u."id" = t."user_id"`,
    );
    await queryRunner.query(`ALTER TABLE "email_changes" ADD "report_ended_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE "email_changes" SET "report_ended_at" = "reported_at" WHERE "reported_at" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "email_changes" ADD "old_email_canonical" character varying(255)`);
    const changes = (await queryRunner.query(`SELECT "id", "old_email" FROM "email_changes"`)) as {
      id: string;
      old_email: string;
    }[];
    for (const change of changes) {
      await queryRunner.query(`UPDATE "email_changes" SET "old_email_canonical" = $1 WHERE "id" = $2`, [
        canonicalEmail(change.old_email),
        change.id,
      ]);
    }
    await queryRunner.query(
      `CREATE INDEX "email_changes_old_email_canonical_idx" ON "email_changes" ("old_email_canonical") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."email_changes_old_email_canonical_idx"`);
    await queryRunner.query(`ALTER TABLE "email_changes" DROP COLUMN "old_email_canonical"`);
    await queryRunner.query(`ALTER TABLE "email_changes" DROP COLUMN "report_ended_at"`);
    await queryRunner.query(`ALTER TABLE "password_reset_tokens" DROP COLUMN "email"`);
  }
}
