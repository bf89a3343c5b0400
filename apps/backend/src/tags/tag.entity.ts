import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidPrimaryColumn } from '../database/columns';

/** The four vocabularies of the tag registry. */
export const TAG_TYPES = ['thing_to_bring', 'restriction', 'suitability', 'theme'] as const;
export type TagType = (typeof TAG_TYPES)[number];

/**
 * A tag of the registry: a type, a name in French (canonical, required), English and German
 * (optional), and an icon slug. Activities carry tags through `activity_tags` (activities
 * feature); deleting a tag removes those links (ON DELETE CASCADE).
 */
@Entity('tags')
@Check('tags_type_check', `"type" IN ('thing_to_bring', 'restriction', 'suitability', 'theme')`)
@Check('tags_icon_check', `"icon" ~ '^[a-z0-9-]+$'`)
// The listing's order: by type, then French name, then id (GET /tags, with or without `type`).
@Index('tags_type_name_idx', ['type', 'nameFr', 'id'])
export class Tag {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  type!: TagType;

  @Column({ name: 'name_fr', type: 'varchar', length: 255 })
  nameFr!: string;

  @Column({ name: 'name_en', type: 'varchar', length: 255, nullable: true })
  nameEn!: string | null;

  @Column({ name: 'name_de', type: 'varchar', length: 255, nullable: true })
  nameDe!: string | null;

  @Column({ type: 'varchar', length: 64 })
  icon!: string;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
