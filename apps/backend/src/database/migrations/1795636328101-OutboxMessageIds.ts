import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A set-password token remembers the outbox message that issued it, so that a second delivery of
 * one message (same Message-ID) does not void the first delivery's link (docs/mail.md).
 */
export class OutboxMessageIds1795636328101 implements MigrationInterface {
  name = 'OutboxMessageIds1795636328101';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "password_reset_tokens" ADD "outbox_message_id" uuid`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "password_reset_tokens" DROP COLUMN "outbox_message_id"`);
  }
}
