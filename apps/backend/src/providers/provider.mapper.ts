import { ProviderListItemDto } from './dto/provider-list-item.response';
import { ProviderResponseDto } from './dto/provider.response';
import type { Provider } from './provider.entity';

export const toProviderResponse = (p: Provider): ProviderResponseDto => ({
  id: p.id,
  name: p.name,
  description: p.description,
  address: p.address,
  city: p.city,
  country: p.country,
  latitude: p.latitude,
  longitude: p.longitude,
  website: p.website,
  phone: p.phone,
  email: p.email,
  origin: p.origin,
  status: p.status,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

export const toProviderListItem = (p: Provider, distanceMeters: number | null): ProviderListItemDto => ({
  ...toProviderResponse(p),
  distance_meters: distanceMeters,
});
