import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { MembershipRole } from '../access/access';
import { CreatedAtColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { User } from '../users/user.entity';
import { Organization } from './organization.entity';

/** A user's place in an organization; it gives the user the hat `organization:<id>`. */
@Entity('memberships')
@Check('memberships_role_check', `"role" IN ('manager', 'member')`)
@Index('memberships_organization_id_idx', ['organizationId'])
// One manager (the contact) per organization.
@Index('memberships_single_manager', ['organizationId'], { unique: true, where: `"role" = 'manager'` })
export class Membership {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @PrimaryColumn({ name: 'organization_id', type: 'uuid' })
  organizationId!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: MembershipRole;

  @CreatedAtColumn()
  createdAt!: Date;

  @BelongsTo(() => User, 'user_id', 'CASCADE')
  user?: User;

  @BelongsTo(() => Organization, 'organization_id', 'CASCADE')
  organization?: Organization;
}
