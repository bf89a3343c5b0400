import { EmailField, EnumField, PresentNullField, TextField } from '@rt/contracts';
import { PREFERRED_LANGUAGES, type PreferredLanguage } from '../user.entity';

/** `PUT /user`: a full replacement, every field is sent. */
export class UpdateUserDto {
  @TextField({ max: 255, example: 'Ada' })
  first_name!: string;

  @TextField({ max: 255, example: 'Lovelace' })
  last_name!: string;

  @EmailField({ description: 'Unique among users, case-insensitively.' })
  email!: string;

  @EnumField(PREFERRED_LANGUAGES, 'PreferredLanguage')
  preferred_language!: PreferredLanguage;

  @PresentNullField({
    description:
      'Must be sent, and null: it detaches the picture. Image uploads arrive later; until then any other value is refused with 422.',
  })
  profile_picture_id!: null;
}
