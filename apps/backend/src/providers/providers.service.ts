import { Injectable } from '@nestjs/common';
import { LIST_PAGE_RULES, paginated, Paginated, toPage } from '@rt/contracts';
import { AppError } from '@rt/errors';
import { isUUID } from 'class-validator';
import { CreateProviderDto } from './dto/create-provider.dto';
import { ProviderListItemDto } from './dto/provider-list-item.response';
import { ProviderResponseDto } from './dto/provider.response';
import { ProvidersQueryDto } from './dto/providers-query.dto';
import { containsPattern } from './dto/search-field';
import { UpdateProviderDto } from './dto/update-provider.dto';
import { toProviderListItem, toProviderResponse } from './provider.mapper';
import { nearPointOf, providerChanges } from './provider-changes';
import { ProviderFields, ProvidersRepository } from './providers.repository';

export const providerNotFound = () => AppError.notFound('Provider not found.');

/**
 * Providers: the proximity search, on-the-fly creation while planning, reads and updates. Other
 * features ask it whether a provider exists (activities).
 */
@Injectable()
export class ProvidersService {
  constructor(private readonly providers: ProvidersRepository) {}

  /**
   * `GET /tour/providers`: with a point, the providers that have coordinates, nearest first, each
   * with its great-circle distance; without one, every provider by name with a null distance.
   */
  async list(query: ProvidersQueryDto): Promise<Paginated<ProviderListItemDto>> {
    const page = toPage(query, LIST_PAGE_RULES);
    const [found, total] = await this.providers.findPage({
      namePattern: query.search !== undefined ? containsPattern(query.search) : null,
      near: nearPointOf(query),
      limit: page.limit,
      offset: page.offset,
    });
    return paginated(
      found.map((f) => toProviderListItem(f.provider, f.distanceMeters)),
      total,
      page,
    );
  }

  async details(id: string): Promise<ProviderResponseDto> {
    const provider = await this.providers.findById(id);
    if (!provider) throw providerNotFound();
    return toProviderResponse(provider);
  }

  /** `POST /tour/provider`: origin `on_the_fly`, status `draft`. */
  async createOnTheFly(dto: CreateProviderDto): Promise<ProviderResponseDto> {
    const provider = await this.providers.create({
      name: dto.name,
      description: dto.description ?? null,
      address: dto.address ?? null,
      city: dto.city ?? null,
      country: dto.country ?? null,
      latitude: dto.latitude ?? null,
      longitude: dto.longitude ?? null,
      website: dto.website ?? null,
      phone: dto.phone ?? null,
      email: dto.email ?? null,
      origin: 'on_the_fly',
      status: 'draft',
    });
    return toProviderResponse(provider);
  }

  /** `PUT /tour/provider/{id}`: the fields sent; null clears a nullable one. */
  async update(id: string, dto: UpdateProviderDto): Promise<ProviderResponseDto> {
    if (!(await this.providers.update(id, providerChanges(dto)))) throw providerNotFound();
    return this.details(id);
  }

  /** Whether `id` names a provider (activities check their `provider_id`). */
  exists(id: string): Promise<boolean> {
    return isUUID(id) ? this.providers.existsById(id) : Promise.resolve(false);
  }

  /** Creates a provider for the demo seed or the benchmark and answers its id. */
  async seed(fields: ProviderFields): Promise<string> {
    return (await this.providers.create(fields)).id;
  }

  /** Whether any provider exists (the demo seed). */
  anyExists(): Promise<boolean> {
    return this.providers.exists();
  }
}
