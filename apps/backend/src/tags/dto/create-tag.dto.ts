import { EnumField } from '@rt/contracts';
import { TAG_TYPES, type TagType } from '../tag.entity';
import { IconField, NamesField } from './tag-fields';
import { TagNamesDto } from './tag-names.dto';

/** `POST /tags` (super-admin). */
export class CreateTagDto {
  @EnumField(TAG_TYPES, 'TagType')
  type!: TagType;

  @NamesField()
  names!: TagNamesDto;

  @IconField()
  icon!: string;
}
