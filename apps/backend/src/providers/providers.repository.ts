import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { splitPage } from '@rt/database';
import { Repository } from 'typeorm';
import { TransactionalRepository } from '../database/transactions';
import { updateById } from '../database/row-statements';
import { Provider, ProviderOrigin, ProviderStatus } from './provider.entity';
import { ProviderListingInput, providerListingSql } from './proximity.sql';

export interface ProviderFields {
  name: string;
  description: string | null;
  address: string | null;
  city: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  website: string | null;
  phone: string | null;
  email: string | null;
  origin: ProviderOrigin;
  status: ProviderStatus;
}

export type ProviderChanges = Partial<Omit<ProviderFields, 'origin'>>;

/** A provider of the listing with its distance (null without a point). */
export interface ProviderWithDistance {
  provider: Provider;
  distanceMeters: number | null;
}

/** A row of the listing statement: a provider's columns, the page's total and the distance. */
interface ListingRow extends ProviderFields {
  total: number;
  id: string | null;
  created_at: Date;
  updated_at: Date;
  distance_meters: number | null;
}

const fromRow = (row: ListingRow): ProviderWithDistance => ({
  provider: Object.assign(new Provider(), {
    id: row.id,
    name: row.name,
    description: row.description,
    address: row.address,
    city: row.city,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    website: row.website,
    phone: row.phone,
    email: row.email,
    origin: row.origin,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }),
  distanceMeters: row.distance_meters,
});

/** The one writer of `providers`; other features go through ProvidersService. */
@Injectable()
export class ProvidersRepository extends TransactionalRepository<Provider> {
  constructor(@InjectRepository(Provider) plain: Repository<Provider>) {
    super(plain);
  }

  /**
   * One page of the listing and the filtered count, in one statement (proximity.sql.ts: the KNN
   * order of providers_location_idx with a point, providers_name_idx without).
   */
  async findPage(input: ProviderListingInput): Promise<[ProviderWithDistance[], number]> {
    const { text, values } = providerListingSql(input);
    const rows: ListingRow[] = await this.repo.query(text, values);
    const { items, total } = splitPage(rows, fromRow);
    return [items, total];
  }

  findById(id: string): Promise<Provider | null> {
    return this.repo.findOneBy({ id });
  }

  existsById(id: string): Promise<boolean> {
    return this.repo.existsBy({ id });
  }

  create(fields: ProviderFields): Promise<Provider> {
    return this.repo.save(this.repo.create(fields));
  }

  /** Applies the changes; false when the provider does not exist. */
  update(id: string, changes: ProviderChanges): Promise<boolean> {
    return updateById(this.repo, id, changes);
  }

  /** Whether any provider exists (the demo seed). */
  exists(): Promise<boolean> {
    return this.repo.exists();
  }
}
