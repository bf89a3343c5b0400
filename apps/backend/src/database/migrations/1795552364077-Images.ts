import { MigrationInterface, QueryRunner } from 'typeorm';

/** Images (uploads) and the foreign key of users' profile pictures. Generated. */
export class Images1795552364077 implements MigrationInterface {
  name = 'Images1795552364077';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "images" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "format" character varying(8) NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "byte_size" integer NOT NULL, "uploaded_by_user_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "images_format_check" CHECK ("format" IN ('jpeg', 'png', 'webp')), CONSTRAINT "PK_1fe148074c6a1a91b63cb9ee3c9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "images_uploaded_by_user_id_idx" ON "images" ("uploaded_by_user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "images" ADD CONSTRAINT "FK_90ce6619479190dbd03829128a3" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "FK_02ec15de199e79a0c46869895f4" FOREIGN KEY ("profile_picture_id") REFERENCES "images"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "FK_02ec15de199e79a0c46869895f4"`);
    await queryRunner.query(`ALTER TABLE "images" DROP CONSTRAINT "FK_90ce6619479190dbd03829128a3"`);
    await queryRunner.query(`DROP INDEX "public"."images_uploaded_by_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "images"`);
  }
}
