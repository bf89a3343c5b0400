import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The code search's tail (docs/activation-codes.md, "Search").
 * - Every code has the generator's form, `ABCD-EFGH-JKLM` over its 32 symbols: the listing answers
 *   a search no code can hold (a `0`, a `%`, dashes where no code has them) without reading any
 *   (`searchFitsCodes`), which is only right if no other code can exist.
 * - The trigram index covers the code's twelve symbols without their dashes: pg_trgm splits words
 *   at a dash, so a search across one (`W-PT`) found thousands of candidates on the old index
 *   (codes with a group ending in W and one starting with PT) where the symbols' trigram (`WPT`)
 *   finds a few hundred.
 */
export class ActivationCodeFormat1795650000000 implements MigrationInterface {
  name = 'ActivationCodeFormat1795650000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_full_code_format_check" CHECK ("full_code" ~ '^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$')`,
    );
    await queryRunner.query(
      `CREATE INDEX "activation_codes_symbols_trgm_idx" ON "activation_codes" USING gin ((replace("full_code", '-', '')) gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX "public"."activation_codes_full_code_trgm_idx"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "activation_codes_full_code_trgm_idx" ON "activation_codes" USING gin ("full_code" gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX "public"."activation_codes_symbols_trgm_idx"`);
    await queryRunner.query(
      `ALTER TABLE "activation_codes" DROP CONSTRAINT "activation_codes_full_code_format_check"`,
    );
  }
}
