import { sentFields } from '../common/sent-fields';
import type { TagType } from './tag.entity';
import type { TagFields } from './tags.repository';

/** A tag's three names as sent: French required, English and German optional. */
export interface TagNames {
  fr: string;
  en?: string | null;
  de?: string | null;
}

/** The name columns of `names`: an absent English or German name is stored as null. */
export const tagNameFields = (names: TagNames): Pick<TagFields, 'nameFr' | 'nameEn' | 'nameDe'> => ({
  nameFr: names.fr,
  nameEn: names.en ?? null,
  nameDe: names.de ?? null,
});

/** The fields of `PUT /tags/{id}`. */
export interface TagUpdate {
  type?: TagType;
  names?: TagNames;
  icon?: string;
}

/** `PUT /tags/{id}`: the fields sent; `names` replaces the three names together. */
export function tagChanges(dto: TagUpdate): Partial<TagFields> {
  const changes = sentFields<TagUpdate, TagFields>(dto, { type: 'type', icon: 'icon' });
  return dto.names !== undefined ? { ...changes, ...tagNameFields(dto.names) } : changes;
}
