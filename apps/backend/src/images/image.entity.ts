import { Check, Column, Entity, ForeignKey, Index } from 'typeorm';
import { CreatedAtColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/**
 * An uploaded image: the original is stored once, as `<id>.<ext>`, already oriented and without
 * metadata; its variants are made on first request (src/images/image-delivery.ts).
 */
@Entity('images')
@Check('images_format_check', `"format" IN ('jpeg', 'png', 'webp')`)
@Index('images_uploaded_by_user_id_idx', ['uploadedByUserId'])
export class Image {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ type: 'varchar', length: 8 })
  format!: ImageFormat;

  @Column({ type: 'integer' })
  width!: number;

  @Column({ type: 'integer' })
  height!: number;

  /** Bytes of the stored original. */
  @Column({ name: 'byte_size', type: 'integer' })
  byteSize!: number;

  // A key to the users by entity name, without a relation: the users entity names this one (profile
  // pictures), and imports may not go in a circle.
  @UuidColumn('uploaded_by_user_id', { nullable: true })
  @ForeignKey('User', { onDelete: 'SET NULL' })
  uploadedByUserId!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
