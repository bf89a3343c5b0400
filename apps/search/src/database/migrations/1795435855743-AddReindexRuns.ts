import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddReindexRuns1795435855743 implements MigrationInterface {
  name = 'AddReindexRuns1795435855743';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reindex_runs" ("id" integer GENERATED ALWAYS AS IDENTITY NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(16) NOT NULL, "triggered_by" character varying(16) NOT NULL, "forced" boolean NOT NULL DEFAULT false, "source" text NOT NULL, "embedding_model" text NOT NULL, "embedding_dimension" integer NOT NULL, "inserted" integer NOT NULL DEFAULT '0', "updated" integer NOT NULL DEFAULT '0', "unchanged" integer NOT NULL DEFAULT '0', "removed" integer NOT NULL DEFAULT '0', "invalid" integer NOT NULL DEFAULT '0', "error" text, CONSTRAINT "PK_444417448a43bcdd28a79fd1460" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "reindex_runs_status_finished_at_idx" ON "reindex_runs" ("status", "finished_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."reindex_runs_status_finished_at_idx"`);
    await queryRunner.query(`DROP TABLE "reindex_runs"`);
  }
}
