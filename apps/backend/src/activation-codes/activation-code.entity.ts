import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Organization } from '../organizations/organization.entity';
import { User } from '../users/user.entity';
import { ActivationCodeBatch } from './activation-code-batch.entity';

/**
 * One activation code. The status is never stored: it is derived from the lifecycle timestamps
 * below and `expires_at < now()` by the one definition in activation-code-status.sql.ts (SQL) and
 * activation-code-status.ts (its TypeScript mirror).
 *
 * `is_active` comes from trips: a trip's start (`ActivationCodesService.startTrip`, for the trips
 * feature) sets `used_at` and the trip window (`trip_starts_on`, `trip_ends_on`); the code is
 * active while today (Europe/Zurich) lies in that window (`ACTIVE_SQL`, `isActive`).
 */
@Entity('activation_codes')
@Check(
  'activation_codes_trip_window_check',
  `("trip_starts_on" IS NULL) = ("trip_ends_on" IS NULL) AND ("trip_ends_on" IS NULL OR "trip_ends_on" >= "trip_starts_on")`,
)
// The generator's form (activation-code-generator.ts), which the listing's search relies on.
@Check(
  'activation_codes_full_code_format_check',
  `"full_code" ~ '^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$'`,
)
@Unique('activation_codes_full_code_unique', ['fullCode'])
// Infix search: a trigram GIN index of the code's symbols without dashes, created by hand in the
// migration (TypeORM cannot express the expression's operator class), hence not synchronised.
@Index('activation_codes_symbols_trgm_idx', { synchronize: false })
// The listing's order (created_at DESC, full_code), scoped to an organization or not.
@Index('activation_codes_organization_created_idx', { synchronize: false })
@Index('activation_codes_created_idx', { synchronize: false })
@Index('activation_codes_batch_idx', ['batchId'])
@Index('activation_codes_claimed_by_idx', ['claimedByUserId'], { where: '"claimed_by_user_id" IS NOT NULL' })
export class ActivationCode {
  @UuidPrimaryColumn()
  id!: string;

  /** `ABCD-EFGH-JKLM` (activation-code-generator.ts); unique across all organizations. */
  @Column({ name: 'full_code', type: 'varchar', length: 14 })
  fullCode!: string;

  /** `organisation_id` on the wire. */
  @UuidColumn('organization_id')
  organizationId!: string;

  @UuidColumn('batch_id')
  batchId!: string;

  @TimestampColumn('expires_at', { nullable: true })
  expiresAt!: Date | null;

  /** Set when the code is sold (claimed by a traveller); kept by cancel and reimburse. */
  @TimestampColumn('purchased_at', { nullable: true })
  purchasedAt!: Date | null;

  /** Set when a trip starts on the code (trips feature); null until then. */
  @TimestampColumn('used_at', { nullable: true })
  usedAt!: Date | null;

  @TimestampColumn('cancelled_at', { nullable: true })
  cancelledAt!: Date | null;

  /** A reimbursed code is cancelled too (both are set). */
  @TimestampColumn('reimbursed_at', { nullable: true })
  reimbursedAt!: Date | null;

  /**
   * The window of the trip started on the code (`YYYY-MM-DD`, both inclusive): its first day and
   * the date of its last dated step. Both null until a trip starts, both set from then on.
   */
  @Column({ name: 'trip_starts_on', type: 'date', nullable: true })
  tripStartsOn!: string | null;

  @Column({ name: 'trip_ends_on', type: 'date', nullable: true })
  tripEndsOn!: string | null;

  @UuidColumn('claimed_by_user_id', { nullable: true })
  claimedByUserId!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @BelongsTo(() => Organization, 'organization_id', 'RESTRICT')
  organization?: Organization;

  @BelongsTo(() => ActivationCodeBatch, 'batch_id', 'RESTRICT')
  batch?: ActivationCodeBatch;

  @BelongsTo(() => User, 'claimed_by_user_id', 'SET NULL')
  claimedBy?: User;
}
