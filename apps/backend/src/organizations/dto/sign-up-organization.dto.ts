import { EmailField, EnumField, TextField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { PREFERRED_LANGUAGES, type PreferredLanguage } from '../../common/preferred-language';

/** `POST /organizations/signup` (public): a reseller application. */
export class SignUpOrganizationDto {
  @SingleLine()
  @TextField({ max: 255, example: 'Alpine Adventures' })
  name!: string;

  @TextField({ max: 5000, optional: true, nullable: true, example: 'Guided tours in the Alps.' })
  description?: string | null;

  @EmailField({
    description:
      'The future manager: an address of no account creates one without a password, the manager, ' +
      'which hears from us at the first approval; an existing account (matched in its canonical ' +
      'form, D-77) becomes the manager only once it accepts the link mailed to it. Invisible ' +
      'characters, full-width letters or a domain label mixing scripts → 422 with its `reason`.',
  })
  contact_email!: string;

  @SingleLine()
  @TextField({ max: 255, example: 'Ada', description: 'Used for a new account only.' })
  contact_first_name!: string;

  @SingleLine()
  @TextField({ max: 255, example: 'Lovelace', description: 'Used for a new account only.' })
  contact_last_name!: string;

  @EnumField(PREFERRED_LANGUAGES, 'PreferredLanguage', {
    description: "A new contact account's language; an existing account keeps its own.",
  })
  preferred_language!: PreferredLanguage;
}
