import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidPrimaryColumn } from '../database/columns';

export const PROVIDER_ORIGINS = ['catalog', 'on_the_fly'] as const;
export type ProviderOrigin = (typeof PROVIDER_ORIGINS)[number];

export const PROVIDER_STATUSES = ['draft', 'published', 'archived'] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];

/**
 * Who performs activities: a place with an address and, when known, coordinates (WGS 84 degrees,
 * both or neither). The proximity search orders by the GiST index `providers_location_idx` on
 * `ll_to_earth(latitude, longitude)` (contrib cube + earthdistance), written by hand in the
 * migration (an expression index TypeORM cannot express), hence not synchronised from here.
 */
@Entity('providers')
@Check('providers_origin_check', `"origin" IN ('catalog', 'on_the_fly')`)
@Check('providers_status_check', `"status" IN ('draft', 'published', 'archived')`)
@Check(
  'providers_coordinates_check',
  `("latitude" IS NULL) = ("longitude" IS NULL) AND ("latitude" IS NULL OR ("latitude" BETWEEN -90 AND 90 AND "longitude" BETWEEN -180 AND 180))`,
)
// The listing without coordinates: by name, then id.
@Index('providers_name_idx', ['name', 'id'])
@Index('providers_location_idx', { synchronize: false })
export class Provider {
  @UuidPrimaryColumn()
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  address!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  city!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  country!: string | null;

  @Column({ type: 'double precision', nullable: true })
  latitude!: number | null;

  @Column({ type: 'double precision', nullable: true })
  longitude!: number | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  website!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  phone!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 16 })
  origin!: ProviderOrigin;

  @Column({ type: 'varchar', length: 16, default: 'draft' })
  status!: ProviderStatus;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
