import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Organization } from '../organizations/organization.entity';

export const TOUR_STATUSES = ['pending', 'active', 'archived'] as const;
export type TourStatus = (typeof TOUR_STATUSES)[number];

/**
 * A tour sold by a partner organization, optionally linked to a region (whose capacity roll-up
 * counts its `active` tours: tours_region_status_idx). Its steps are `tour_steps`.
 */
@Entity('tours')
@Check('tours_status_check', `"status" IN ('pending', 'active', 'archived')`)
@Check('tours_color_check', `"color" ~ '^#[0-9A-Fa-f]{6}$'`)
// The listing's order: newest first, then id.
@Index('tours_created_idx', ['createdAt', 'id'])
@Index('tours_partner_idx', ['partnerOrganizationId'])
@Index('tours_region_status_idx', ['regionOrganizationId', 'status'])
export class Tour {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** `#RRGGBB`, as sent. */
  @Column({ type: 'varchar', length: 7 })
  color!: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: TourStatus;

  @UuidColumn('partner_organization_id')
  partnerOrganizationId!: string;

  @UuidColumn('region_organization_id', { nullable: true })
  regionOrganizationId!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;

  @BelongsTo(() => Organization, 'partner_organization_id', 'RESTRICT')
  partnerOrganization?: Organization;

  @BelongsTo(() => Organization, 'region_organization_id', 'SET NULL')
  regionOrganization?: Organization;
}
