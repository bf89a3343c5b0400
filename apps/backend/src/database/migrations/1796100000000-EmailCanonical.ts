import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  addressReportOf,
  EMAIL_COLLISIONS_COMMAND,
  STORED_ADDRESSES_SQL,
  type StoredAddress,
} from '../../users/email-collisions';

/** Rows written per statement of the backfill. */
const BATCH = 1000;

/**
 * One canonical form per address (docs/decisions.md D-77), computed by the application's own
 * function (src/users/email-address.ts) and stored in `users.email_canonical`; accounts are unique
 * on it, and PostgreSQL no longer folds addresses (users_email_lower_unique is dropped).
 * - Addresses the new rules refuse (invisible characters, full-width letters, a domain mixing
 *   scripts) stay as they are and get the function's best-effort form, so their owners still sign
 *   in and reset; their ids are printed.
 * - Two accounts whose addresses have one form (a Unicode and a punycode domain, two spellings of
 *   one letter) fail the migration, which changes nothing; EMAIL_COLLISIONS_COMMAND lists them and
 *   renames one.
 * Expand only: the column stays nullable while the previous release, which never writes it, serves
 * during the rollout; those rows are found by their exact address until a later release fills
 * them and sets NOT NULL (D-77).
 */
export class EmailCanonical1796100000000 implements MigrationInterface {
  name = 'EmailCanonical1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "email_canonical" character varying`);
    const report = addressReportOf((await queryRunner.query(STORED_ADDRESSES_SQL)) as StoredAddress[]);
    // Ids only: the migration's output is a log, and logs hold no addresses (D-17).
    for (const { id, refusal } of report.refused) {
      console.warn(
        `[migrate] users ${id}: address kept, though new ones of its shape are refused (${refusal})`,
      );
    }
    if (report.collisions.length > 0) {
      const groups = report.collisions.map((group) => group.map((row) => row.id).join(' = ')).join('; ');
      throw new Error(
        `${report.collisions.length} address(es) name several accounts once compared in their canonical form ` +
          `(users ${groups}). List them and rename one of each with \`${EMAIL_COLLISIONS_COMMAND}\`, ` +
          `then migrate again (docs/decisions.md D-77).`,
      );
    }
    const entries = [...report.canonicalById];
    for (let start = 0; start < entries.length; start += BATCH) {
      const batch = entries.slice(start, start + BATCH);
      await queryRunner.query(
        `UPDATE "users" SET "email_canonical" = v.canonical
           FROM unnest($1::uuid[], $2::text[]) AS v(id, canonical) WHERE "users"."id" = v.id`,
        [batch.map(([id]) => id), batch.map(([, canonical]) => canonical)],
      );
    }
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_email_canonical_unique" ON "users" ("email_canonical") `,
    );
    await queryRunner.query(
      `CREATE INDEX "users_email_without_canonical_idx" ON "users" ("email") WHERE "email_canonical" IS NULL`,
    );
    await queryRunner.query(`DROP INDEX "public"."users_email_lower_unique"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_lower_unique" ON "users" (lower("email"))`);
    await queryRunner.query(`DROP INDEX "public"."users_email_without_canonical_idx"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_canonical_unique"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "email_canonical"`);
  }
}
