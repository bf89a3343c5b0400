import { EnumField } from '@rt/contracts';
import { TAG_TYPES, type TagType } from '../tag.entity';
import { IconField, NamesField } from './tag-fields';
import { TagNamesDto } from './tag-names.dto';

/** `PUT /tags/{id}` (super-admin): every field optional; an absent one stays as it is. */
export class UpdateTagDto {
  @EnumField(TAG_TYPES, 'TagType', { optional: true })
  type?: TagType;

  @NamesField({ optional: true })
  names?: TagNamesDto;

  @IconField({ optional: true })
  icon?: string;
}
