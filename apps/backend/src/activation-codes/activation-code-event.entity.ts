import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UuidColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { User } from '../users/user.entity';
import { ActivationCode } from './activation-code.entity';

export const CODE_ACTIONS = [
  'generate',
  'claim',
  'cancel',
  'reimburse',
  'renew',
  'change_expiration',
  'trip_start',
] as const;
export type CodeAction = (typeof CODE_ACTIONS)[number];

/**
 * The history of a code, for disputes: one row per lifecycle move, appended by the statement (or
 * the transaction) that makes the move. Never updated. `from_status` is null for the generation.
 */
@Entity('activation_code_events')
@Check(
  'activation_code_events_action_check',
  `"action" IN ('generate', 'claim', 'cancel', 'reimburse', 'renew', 'change_expiration', 'trip_start')`,
)
@Index('activation_code_events_code_idx', ['codeId', 'at', 'id'])
export class ActivationCodeEvent {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @UuidColumn('code_id')
  codeId!: string;

  @Column({ type: 'varchar', length: 32 })
  action!: CodeAction;

  @Column({ name: 'from_status', type: 'varchar', length: 16, nullable: true })
  fromStatus!: string | null;

  @Column({ name: 'to_status', type: 'varchar', length: 16 })
  toStatus!: string;

  @UuidColumn('actor_user_id', { nullable: true })
  actorUserId!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;

  @Column({ type: 'jsonb', nullable: true })
  details!: Record<string, unknown> | null;

  @BelongsTo(() => ActivationCode, 'code_id', 'CASCADE')
  code?: ActivationCode;

  @BelongsTo(() => User, 'actor_user_id', 'SET NULL')
  actor?: User;
}
