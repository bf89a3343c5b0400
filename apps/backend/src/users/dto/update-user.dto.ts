import { EmailField, EnumField, TextField, UuidField } from '@rt/contracts';
import { PREFERRED_LANGUAGES, type PreferredLanguage } from '../../common/preferred-language';

/**
 * `PUT /user`: a full replacement, every field is sent. A changed first or last name must be a
 * single line; the service judges that against the stored name, which may be sent back as it is
 * (`changedMultiLineNames`, docs/decisions.md D-74).
 */
export class UpdateUserDto {
  @TextField({ max: 255, example: 'Ada' })
  first_name!: string;

  @TextField({ max: 255, example: 'Lovelace' })
  last_name!: string;

  @EmailField({
    description:
      'Unique among users in its canonical form (case, Unicode normalisation, the punycode form of ' +
      'the domain; D-77). A new address takes effect only once it is confirmed through the link ' +
      'mailed to it (`pending_email` until then); the same address in another spelling changes ' +
      'nothing. A new address with invisible characters, full-width letters or a domain label ' +
      'mixing scripts is refused (422 with its `reason`).',
  })
  email!: string;

  @TextField({
    max: 128,
    optional: true,
    format: 'password',
    description:
      'The current password: required when `email` changes (422 on `current_password` when missing or wrong), ignored otherwise.',
  })
  current_password?: string;

  @EnumField(PREFERRED_LANGUAGES, 'PreferredLanguage')
  preferred_language!: PreferredLanguage;

  @UuidField({
    nullable: true,
    description:
      'Must be sent: the id of an image uploaded with `POST /images` (an unknown id → 422), or null to detach the picture.',
  })
  profile_picture_id!: string | null;
}
