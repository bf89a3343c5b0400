import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UpdatedAtColumn, UuidPrimaryColumn } from '../database/columns';

export const ORGANIZATION_TYPES = ['reseller', 'region'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

export const COMMISSION_TYPES = ['percent', 'fixed'] as const;
export type CommissionType = (typeof COMMISSION_TYPES)[number];

export const ORGANIZATION_STATUSES = ['pending', 'approved', 'suspended'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

/**
 * A reseller or a region. The contact is its manager member (memberships); the activation-code
 * counts are computed from the codes, never stored here.
 */
@Entity('organizations')
@Check('organizations_type_check', `"type" IN ('reseller', 'region')`)
@Check('organizations_status_check', `"status" IN ('pending', 'approved', 'suspended')`)
@Check('organizations_commission_type_check', `"commission_type" IN ('percent', 'fixed')`)
@Check('organizations_commission_check', `"commission" >= 0`)
@Index('organizations_type_name_idx', ['type', 'name', 'id'])
// At most one organization is the default one (GET /organizations/default); seeded by a migration.
@Index('organizations_single_default', ['isDefault'], { unique: true, where: '"is_default"' })
export class Organization {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: OrganizationType;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: OrganizationStatus;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** numeric(10,2): read back as a string such as "12.50", which is also its wire form. */
  @Column({ type: 'numeric', precision: 10, scale: 2, default: () => '0.00' })
  commission!: string;

  @Column({ name: 'commission_type', type: 'varchar', length: 16, default: 'percent' })
  commissionType!: CommissionType;

  /**
   * When the manager was sent the invitation (or, for an existing account, the notification):
   * at creation by a super-admin, at the first approval after a signup. Null until then; never twice.
   */
  @TimestampColumn('manager_invited_at', { nullable: true })
  managerInvitedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
