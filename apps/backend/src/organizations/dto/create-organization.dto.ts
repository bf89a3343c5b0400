import { EmailField, EnumField, TextField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { PREFERRED_LANGUAGES, type PreferredLanguage } from '../../common/preferred-language';
import { CommissionField, CommissionTypeField } from '../commission-fields';
import { ORGANIZATION_TYPES, type CommissionType, type OrganizationType } from '../organization.entity';

/** `POST /organizations` (super-admin): a pending organization and its manager. */
export class CreateOrganizationDto {
  @SingleLine()
  @TextField({ max: 255, example: 'Alpine Adventures' })
  name!: string;

  @EnumField(ORGANIZATION_TYPES, 'OrganizationType')
  type!: OrganizationType;

  @TextField({ max: 5000, optional: true, nullable: true, example: 'Guided tours in the Alps.' })
  description?: string | null;

  @EmailField({
    description:
      'The manager (contact). An address of no account creates one without a password, invited by ' +
      'email; an existing account (matched case-insensitively) becomes the manager and is notified.',
  })
  manager_email!: string;

  @SingleLine()
  @TextField({ max: 255, example: 'Ada', description: 'Used for a new account only.' })
  manager_first_name!: string;

  @SingleLine()
  @TextField({ max: 255, example: 'Lovelace', description: 'Used for a new account only.' })
  manager_last_name!: string;

  @EnumField(PREFERRED_LANGUAGES, 'PreferredLanguage', {
    description: "A new manager account's language; an existing account keeps its own.",
  })
  preferred_language!: PreferredLanguage;

  @CommissionField()
  commission?: number;

  @CommissionTypeField()
  commission_type?: CommissionType;
}
