import { Column, Entity, Index, Unique } from 'typeorm';
import {
  CreatedAtColumn,
  TimestampColumn,
  UpdatedAtColumn,
  UuidColumn,
  UuidPrimaryColumn,
} from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Organization } from '../organizations/organization.entity';
import { User } from '../users/user.entity';

/**
 * The codes generated in one call. `batch_number` counts up per organization (1, 2, 3 …) without
 * gaps: it comes from the organization's row of `activation_code_batch_counters`, taken in the
 * generating transaction (see ActivationCodeBatchesRepository.nextBatchNumber); the unique constraint
 * below is the last guard.
 */
@Entity('activation_code_batches')
@Unique('activation_code_batches_organization_number_unique', ['organizationId', 'batchNumber'])
// GET /activation-codes/batches without an organization: newest first.
@Index('activation_code_batches_created_idx', ['createdAt', 'id'])
export class ActivationCodeBatch {
  @UuidPrimaryColumn()
  id!: string;

  /** `organisation_id` on the wire. */
  @UuidColumn('organization_id')
  organizationId!: string;

  @Column({ name: 'batch_number', type: 'integer' })
  batchNumber!: number;

  @Column({ name: 'internal_note', type: 'text', nullable: true })
  internalNote!: string | null;

  /** The expiration given to the batch's codes (PATCH applies a new one to its unused codes). */
  @TimestampColumn('expires_at', { nullable: true })
  expiresAt!: Date | null;

  @UuidColumn('created_by_user_id', { nullable: true })
  createdByUserId!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;

  @BelongsTo(() => Organization, 'organization_id', 'RESTRICT')
  organization?: Organization;

  @BelongsTo(() => User, 'created_by_user_id', 'SET NULL')
  createdBy?: User;
}
