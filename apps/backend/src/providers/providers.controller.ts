import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Paginated } from '@rt/contracts';
import { SuperAdminOnly } from '../access/access.decorators';
import { ApiJsonBodyErrors } from '../common/api-responses';
import { PathResource } from '../common/resource-id';
import { CreateProviderDto } from './dto/create-provider.dto';
import { ProviderListItemDto } from './dto/provider-list-item.response';
import { ProviderListResponseDto } from './dto/provider-list.response';
import { ProviderResponseDto } from './dto/provider.response';
import { ProvidersQueryDto } from './dto/providers-query.dto';
import { UpdateProviderDto } from './dto/update-provider.dto';
import { providerNotFound, ProvidersService } from './providers.service';

const PROVIDER = new PathResource('provider', providerNotFound);

@ApiTags('providers')
@Controller('tour')
export class ProvidersController {
  constructor(private readonly providers: ProvidersService) {}

  @Get('providers')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'listProviders',
    summary: 'Search providers, by proximity',
    description:
      '`latitude` and `longitude` come together (one alone → 422; out of range → 422). With them: ' +
      'only providers that have coordinates, nearest first, each with `distance_meters` (great-circle, ' +
      'rounded metres), ordered by PostgreSQL from a GiST index. Without: every provider by name, ' +
      '`distance_meters` null. `search` matches part of the name, any case. `per_page` is 25 by ' +
      'default and lowered to 100 silently.',
  })
  @ApiOkResponse({ type: ProviderListResponseDto, description: 'One page of providers.' })
  list(@Query() query: ProvidersQueryDto): Promise<Paginated<ProviderListItemDto>> {
    return this.providers.list(query);
  }

  @Post('provider')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'createProvider',
    summary: 'Create a provider while planning',
    description: 'Created with origin `on_the_fly` and status `draft`.',
  })
  @ApiCreatedResponse({ type: ProviderResponseDto, description: 'The provider.' })
  @ApiJsonBodyErrors()
  create(@Body() dto: CreateProviderDto): Promise<ProviderResponseDto> {
    return this.providers.createOnTheFly(dto);
  }

  @Get('provider/:id')
  @SuperAdminOnly()
  @PROVIDER.route()
  @ApiOperation({ operationId: 'getProvider', summary: 'A provider' })
  @ApiOkResponse({ type: ProviderResponseDto, description: 'The provider.' })
  details(@PROVIDER.param() id: string): Promise<ProviderResponseDto> {
    return this.providers.details(id);
  }

  @Put('provider/:id')
  @SuperAdminOnly()
  @PROVIDER.route()
  @ApiOperation({
    operationId: 'updateProvider',
    summary: 'Update a provider',
    description:
      'Absent fields stay as they are; null clears a nullable one. `latitude` and `longitude` come ' +
      'together (both null clears the location). `origin` never changes.',
  })
  @ApiOkResponse({ type: ProviderResponseDto, description: 'The provider.' })
  @ApiJsonBodyErrors()
  update(@PROVIDER.param() id: string, @Body() dto: UpdateProviderDto): Promise<ProviderResponseDto> {
    return this.providers.update(id, dto);
  }
}
