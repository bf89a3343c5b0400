import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each outbox message keeps the trace context of the request that enqueued it (docs/observability.md, "Traces"). */
export class OutboxTraceContext1795700000000 implements MigrationInterface {
  name = 'OutboxTraceContext1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mail_outbox" ADD "trace_context" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mail_outbox" DROP COLUMN "trace_context"`);
  }
}
