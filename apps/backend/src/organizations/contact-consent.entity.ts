import { Entity, Index } from 'typeorm';
import { CreatedAtColumn, TimestampColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { User } from '../users/user.entity';
import { Organization } from './organization.entity';

/**
 * A public signup that named an existing account as its contact (docs/decisions.md D-78): the
 * account becomes the organization's manager only once it accepts a link mailed to it
 * (`accepted_at`); until then the organization has no manager and shows this account's email as
 * its contact. Its links are `signup_contact_consent_tokens`.
 */
@Entity('signup_contact_consents')
// One contact per organization, like memberships_single_manager.
@Index('signup_contact_consents_organization_unique', ['organizationId'], { unique: true })
@Index('signup_contact_consents_user_id_idx', ['userId'])
export class SignupContactConsent {
  @UuidPrimaryColumn()
  id!: string;

  @UuidColumn('organization_id')
  organizationId!: string;

  @UuidColumn('user_id')
  userId!: string;

  @TimestampColumn('accepted_at', { nullable: true })
  acceptedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @BelongsTo(() => Organization, 'organization_id', 'CASCADE')
  organization?: Organization;

  @BelongsTo(() => User, 'user_id', 'CASCADE')
  user?: User;
}
