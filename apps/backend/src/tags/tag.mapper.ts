import { TagResponseDto } from './dto/tag.response';
import type { Tag } from './tag.entity';

export const toTagResponse = (t: Tag): TagResponseDto => ({
  id: t.id,
  type: t.type,
  names: { fr: t.nameFr, en: t.nameEn, de: t.nameDe },
  icon: t.icon,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});
