import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidPrimaryColumn } from '../database/columns';

export const ORGANIZATION_TYPES = ['reseller', 'region'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

export const ORGANIZATION_STATUSES = ['pending', 'approved', 'suspended'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

/**
 * What viewing hats need of an organization; the organizations feature adds the commercial
 * terms, description and contact.
 */
@Entity('organizations')
@Check('organizations_type_check', `"type" IN ('reseller', 'region')`)
@Check('organizations_status_check', `"status" IN ('pending', 'approved', 'suspended')`)
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

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
