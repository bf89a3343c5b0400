import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../database/columns';

/**
 * One rate-limit counter (src/throttling): shared by every replica, updated by one atomic upsert.
 * The key is a SHA-256, so neither emails nor addresses are stored in clear.
 */
@Entity('throttle_counters')
@Index('throttle_counters_expires_at_idx', ['expiresAt'])
export class ThrottleCounter {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'integer' })
  hits!: number;

  /** End of the current window. */
  @TimestampColumn('expires_at')
  expiresAt!: Date;

  /** Set while the key is blocked (after more than `limit` hits in the window). */
  @TimestampColumn('blocked_until', { nullable: true })
  blockedUntil!: Date | null;
}
