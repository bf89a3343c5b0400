import { EmailField, EnumField, TextField, UuidField } from '@rt/contracts';
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

  @UuidField({
    nullable: true,
    description:
      'Must be sent: the id of an image uploaded with `POST /images` (an unknown id → 422), or null to detach the picture.',
  })
  profile_picture_id!: string | null;
}
