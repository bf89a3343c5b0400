import { EnumField, PageQueryDto } from '@rt/contracts';
import { TAG_TYPES, type TagType } from '../tag.entity';

/** `GET /tags`: the type filter and the page (per_page 25 by default, capped silently at 1000). */
export class TagsQueryDto extends PageQueryDto {
  @EnumField(TAG_TYPES, 'TagType', {
    optional: true,
    description: 'Only tags of this vocabulary; any other value → 422.',
  })
  type?: TagType;
}
