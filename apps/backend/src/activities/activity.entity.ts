import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Provider } from '../providers/provider.entity';

/**
 * Something a traveller does, performed by a provider: shared rows (tours link the same ids,
 * duplicating a tour included), never deleted. `capacity` is travellers per departure day, null
 * when unknown; `unlimited` means it never saturates; both at once is impossible.
 */
@Entity('activities')
@Check('activities_capacity_check', `"capacity" IS NULL OR "capacity" >= 0`)
@Check('activities_capacity_or_unlimited_check', `NOT ("unlimited" AND "capacity" IS NOT NULL)`)
// The listing's order (by name, then id), and the same per provider (`provider_id` filter).
@Index('activities_name_idx', ['name', 'id'])
@Index('activities_provider_name_idx', ['providerId', 'name', 'id'])
export class Activity {
  @UuidPrimaryColumn()
  id!: string;

  @UuidColumn('provider_id')
  providerId!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** An image id; the images feature adds the table and the foreign key. */
  @UuidColumn('image_id', { nullable: true })
  imageId!: string | null;

  @Column({ type: 'integer', nullable: true })
  capacity!: number | null;

  @Column({ type: 'boolean', default: false })
  unlimited!: boolean;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;

  @BelongsTo(() => Provider, 'provider_id', 'RESTRICT')
  provider?: Provider;
}
