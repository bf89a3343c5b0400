import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tours with steps and plans, activities with tags and closures, providers, the tag registry.
 * Generated, plus by hand: the contrib extensions cube and earthdistance, and the GiST index of
 * the providers' proximity search on ll_to_earth(latitude, longitude) (an expression index
 * TypeORM cannot express: synchronize: false on the entity), which serves `ORDER BY … <-> …`.
 */
export class ToursActivitiesProviders1795552659714 implements MigrationInterface {
  name = 'ToursActivitiesProviders1795552659714';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // By hand: earthdistance needs cube (both contrib; the embedded database loads them too).
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS cube`);
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS earthdistance`);
    await queryRunner.query(
      `CREATE TABLE "providers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "description" text, "address" character varying(255), "city" character varying(255), "country" character varying(255), "latitude" double precision, "longitude" double precision, "website" character varying(2048), "phone" character varying(64), "email" character varying(255), "origin" character varying(16) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'draft', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "providers_coordinates_check" CHECK (("latitude" IS NULL) = ("longitude" IS NULL) AND ("latitude" IS NULL OR ("latitude" BETWEEN -90 AND 90 AND "longitude" BETWEEN -180 AND 180))), CONSTRAINT "providers_status_check" CHECK ("status" IN ('draft', 'published', 'archived')), CONSTRAINT "providers_origin_check" CHECK ("origin" IN ('catalog', 'on_the_fly')), CONSTRAINT "PK_af13fc2ebf382fe0dad2e4793aa" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "providers_name_idx" ON "providers" ("name", "id") `);
    // By hand (synchronize: false on the entity): nearest-first ordering by KNN on the earth cube.
    await queryRunner.query(
      `CREATE INDEX "providers_location_idx" ON "providers" USING gist (ll_to_earth("latitude", "longitude"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "activities" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "provider_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "image_id" uuid, "capacity" integer, "unlimited" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "activities_capacity_or_unlimited_check" CHECK (NOT ("unlimited" AND "capacity" IS NOT NULL)), CONSTRAINT "activities_capacity_check" CHECK ("capacity" IS NULL OR "capacity" >= 0), CONSTRAINT "PK_7f4004429f731ffb9c88eb486a8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "activities_provider_name_idx" ON "activities" ("provider_id", "name", "id") `,
    );
    await queryRunner.query(`CREATE INDEX "activities_name_idx" ON "activities" ("name", "id") `);
    await queryRunner.query(
      `CREATE TABLE "activity_closures" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "activity_id" uuid NOT NULL, "starts_on" date NOT NULL, "ends_on" date NOT NULL, "reason" character varying(1000), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "activity_closures_range_check" CHECK ("ends_on" >= "starts_on"), CONSTRAINT "PK_608f35a37d11cac4904bf58ac4f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "activity_closures_activity_dates_idx" ON "activity_closures" ("activity_id", "starts_on", "ends_on") `,
    );
    await queryRunner.query(
      `CREATE TABLE "tags" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "type" character varying(32) NOT NULL, "name_fr" character varying(255) NOT NULL, "name_en" character varying(255), "name_de" character varying(255), "icon" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "tags_icon_check" CHECK ("icon" ~ '^[a-z0-9-]+$'), CONSTRAINT "tags_type_check" CHECK ("type" IN ('thing_to_bring', 'restriction', 'suitability', 'theme')), CONSTRAINT "PK_e7dc17249a1148a1970748eda99" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "tags_type_name_idx" ON "tags" ("type", "name_fr", "id") `);
    await queryRunner.query(
      `CREATE TABLE "activity_tags" ("activity_id" uuid NOT NULL, "tag_id" uuid NOT NULL, CONSTRAINT "PK_1f4bb20fab678323f29e413f445" PRIMARY KEY ("activity_id", "tag_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "activity_tags_tag_idx" ON "activity_tags" ("tag_id") `);
    await queryRunner.query(
      `CREATE TABLE "tours" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "color" character varying(7) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "partner_organization_id" uuid NOT NULL, "region_organization_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "tours_color_check" CHECK ("color" ~ '^#[0-9A-Fa-f]{6}$'), CONSTRAINT "tours_status_check" CHECK ("status" IN ('pending', 'active', 'archived')), CONSTRAINT "PK_2202ba445792c1ad0edf2de8de2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "tours_region_status_idx" ON "tours" ("region_organization_id", "status") `,
    );
    await queryRunner.query(`CREATE INDEX "tours_partner_idx" ON "tours" ("partner_organization_id") `);
    await queryRunner.query(`CREATE INDEX "tours_created_idx" ON "tours" ("created_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "tour_steps" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tour_id" uuid NOT NULL, "position" integer NOT NULL, "day_number" integer, "time" TIME, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "tour_steps_tour_position_unique" UNIQUE ("tour_id", "position") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "tour_steps_position_check" CHECK ("position" >= 1), CONSTRAINT "tour_steps_day_number_check" CHECK ("day_number" IS NULL OR "day_number" >= 1), CONSTRAINT "PK_6b14248c61a18f9821e7869503e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "tour_step_activities" ("step_id" uuid NOT NULL, "priority" integer NOT NULL, "activity_id" uuid NOT NULL, CONSTRAINT "tour_step_activities_step_activity_unique" UNIQUE ("step_id", "activity_id"), CONSTRAINT "tour_step_activities_priority_check" CHECK ("priority" >= 1), CONSTRAINT "PK_7faec82246bf4f4c59c7ae445f6" PRIMARY KEY ("step_id", "priority"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "tour_step_activities_activity_idx" ON "tour_step_activities" ("activity_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "activities" ADD CONSTRAINT "FK_9b80fcc88b8b4822405f558d964" FOREIGN KEY ("provider_id") REFERENCES "providers"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activity_closures" ADD CONSTRAINT "FK_c978df012f0ee056342ff7b0e77" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activity_tags" ADD CONSTRAINT "FK_a18f4d22d9af8576c6324e7e58e" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "activity_tags" ADD CONSTRAINT "FK_25c35b78606b825190e163f7df3" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tours" ADD CONSTRAINT "FK_d3e221631070e780bc487bbcc94" FOREIGN KEY ("partner_organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tours" ADD CONSTRAINT "FK_7c5a19177e85d7827b6cc97f35e" FOREIGN KEY ("region_organization_id") REFERENCES "organizations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tour_steps" ADD CONSTRAINT "FK_53356f43013c5576a9968f12bdf" FOREIGN KEY ("tour_id") REFERENCES "tours"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tour_step_activities" ADD CONSTRAINT "FK_6b17f8c681aac57e44066ae66ce" FOREIGN KEY ("step_id") REFERENCES "tour_steps"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tour_step_activities" ADD CONSTRAINT "FK_858d3f1e98bab8797adf9c44591" FOREIGN KEY ("activity_id") REFERENCES "activities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "tour_step_activities" DROP CONSTRAINT "FK_858d3f1e98bab8797adf9c44591"`,
    );
    await queryRunner.query(
      `ALTER TABLE "tour_step_activities" DROP CONSTRAINT "FK_6b17f8c681aac57e44066ae66ce"`,
    );
    await queryRunner.query(`ALTER TABLE "tour_steps" DROP CONSTRAINT "FK_53356f43013c5576a9968f12bdf"`);
    await queryRunner.query(`ALTER TABLE "tours" DROP CONSTRAINT "FK_7c5a19177e85d7827b6cc97f35e"`);
    await queryRunner.query(`ALTER TABLE "tours" DROP CONSTRAINT "FK_d3e221631070e780bc487bbcc94"`);
    await queryRunner.query(`ALTER TABLE "activity_tags" DROP CONSTRAINT "FK_25c35b78606b825190e163f7df3"`);
    await queryRunner.query(`ALTER TABLE "activity_tags" DROP CONSTRAINT "FK_a18f4d22d9af8576c6324e7e58e"`);
    await queryRunner.query(
      `ALTER TABLE "activity_closures" DROP CONSTRAINT "FK_c978df012f0ee056342ff7b0e77"`,
    );
    await queryRunner.query(`ALTER TABLE "activities" DROP CONSTRAINT "FK_9b80fcc88b8b4822405f558d964"`);
    await queryRunner.query(`DROP INDEX "public"."tour_step_activities_activity_idx"`);
    await queryRunner.query(`DROP TABLE "tour_step_activities"`);
    await queryRunner.query(`DROP TABLE "tour_steps"`);
    await queryRunner.query(`DROP INDEX "public"."tours_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."tours_partner_idx"`);
    await queryRunner.query(`DROP INDEX "public"."tours_region_status_idx"`);
    await queryRunner.query(`DROP TABLE "tours"`);
    await queryRunner.query(`DROP INDEX "public"."activity_tags_tag_idx"`);
    await queryRunner.query(`DROP TABLE "activity_tags"`);
    await queryRunner.query(`DROP INDEX "public"."tags_type_name_idx"`);
    await queryRunner.query(`DROP TABLE "tags"`);
    await queryRunner.query(`DROP INDEX "public"."activity_closures_activity_dates_idx"`);
    await queryRunner.query(`DROP TABLE "activity_closures"`);
    await queryRunner.query(`DROP INDEX "public"."activities_name_idx"`);
    await queryRunner.query(`DROP INDEX "public"."activities_provider_name_idx"`);
    await queryRunner.query(`DROP TABLE "activities"`);
    await queryRunner.query(`DROP INDEX "public"."providers_location_idx"`);
    await queryRunner.query(`DROP INDEX "public"."providers_name_idx"`);
    await queryRunner.query(`DROP TABLE "providers"`);
    // The extensions stay: dropping them could break another feature that adopted them.
  }
}
