import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trips, and the trip window on activation codes (`trip_starts_on`, `trip_ends_on`: the code is
 * active while today in Europe/Zurich lies in it). Generated, plus by hand: the history's action
 * check gains `trip_start` (TypeORM compares checks by name, so it does not see the new list).
 */
export class TripsAndCodeWindow1795553959951 implements MigrationInterface {
  name = 'TripsAndCodeWindow1795553959951';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "trips" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "activation_code_id" uuid NOT NULL, "user_id" uuid, "tour_id" uuid, "starts_on" date NOT NULL, "ends_on" date NOT NULL, "travellers" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "trips_activation_code_unique" UNIQUE ("activation_code_id"), CONSTRAINT "trips_window_check" CHECK ("ends_on" >= "starts_on"), CONSTRAINT "trips_travellers_check" CHECK ("travellers" >= 1), CONSTRAINT "PK_f71c231dee9c05a9522f9e840f5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "trips_user_created_idx" ON "trips" ("user_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "trips_tour_starts_on_idx" ON "trips" ("tour_id", "starts_on", "travellers") `,
    );
    await queryRunner.query(`ALTER TABLE "activation_codes" ADD "trip_starts_on" date`);
    await queryRunner.query(`ALTER TABLE "activation_codes" ADD "trip_ends_on" date`);
    await queryRunner.query(
      `ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_trip_window_check" CHECK (("trip_starts_on" IS NULL) = ("trip_ends_on" IS NULL) AND ("trip_ends_on" IS NULL OR "trip_ends_on" >= "trip_starts_on"))`,
    );
    // By hand: the history records a trip's start.
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" DROP CONSTRAINT "activation_code_events_action_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" ADD CONSTRAINT "activation_code_events_action_check" CHECK ("action" IN ('generate', 'claim', 'cancel', 'reimburse', 'renew', 'change_expiration', 'trip_start'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "trips" ADD CONSTRAINT "FK_d062e25a2bbf9e6a2c849685641" FOREIGN KEY ("activation_code_id") REFERENCES "activation_codes"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "trips" ADD CONSTRAINT "FK_c32589af53db811884889e03663" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "trips" ADD CONSTRAINT "FK_424a49d73da18c277ad017f6602" FOREIGN KEY ("tour_id") REFERENCES "tours"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "trips" DROP CONSTRAINT "FK_424a49d73da18c277ad017f6602"`);
    await queryRunner.query(`ALTER TABLE "trips" DROP CONSTRAINT "FK_c32589af53db811884889e03663"`);
    await queryRunner.query(`ALTER TABLE "trips" DROP CONSTRAINT "FK_d062e25a2bbf9e6a2c849685641"`);
    // By hand: back to the actions before trips (fails while trip_start rows exist).
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" DROP CONSTRAINT "activation_code_events_action_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_code_events" ADD CONSTRAINT "activation_code_events_action_check" CHECK ("action" IN ('generate', 'claim', 'cancel', 'reimburse', 'renew', 'change_expiration'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "activation_codes" DROP CONSTRAINT "activation_codes_trip_window_check"`,
    );
    await queryRunner.query(`ALTER TABLE "activation_codes" DROP COLUMN "trip_ends_on"`);
    await queryRunner.query(`ALTER TABLE "activation_codes" DROP COLUMN "trip_starts_on"`);
    await queryRunner.query(`DROP INDEX "public"."trips_tour_starts_on_idx"`);
    await queryRunner.query(`DROP INDEX "public"."trips_user_created_idx"`);
    await queryRunner.query(`DROP TABLE "trips"`);
  }
}
