import { sentFields } from '../common/sent-fields';
import type { ProviderChanges } from './providers.repository';

/** `PUT /tour/provider/{id}`: the fields sent (the wire names are the row's); null clears one. */
export function providerChanges(dto: ProviderChanges): ProviderChanges {
  return sentFields<ProviderChanges, ProviderChanges>(dto, {
    name: 'name',
    description: 'description',
    address: 'address',
    city: 'city',
    country: 'country',
    latitude: 'latitude',
    longitude: 'longitude',
    website: 'website',
    phone: 'phone',
    email: 'email',
    status: 'status',
  });
}

/** A point on the map, in degrees. */
export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** The point of a proximity search: both coordinates, or none (every provider, by name). */
export function nearPointOf({ latitude, longitude }: Partial<GeoPoint>): GeoPoint | null {
  if (latitude === undefined || longitude === undefined) return null;
  return { latitude, longitude };
}
