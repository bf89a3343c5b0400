import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Paginated } from '@rt/contracts';
import { SuperAdminOnly } from '../access/access.decorators';
import { ApiJsonBodyErrors, ApiNoContentResponse } from '../common/api-responses';
import { PathResource } from '../common/resource-id';
import { CreateTourDto } from './dto/create-tour.dto';
import { TourDetailsResponseDto } from './dto/tour-details.response';
import { TourListResponseDto } from './dto/tour-list.response';
import { TourResponseDto } from './dto/tour.response';
import { ToursQueryDto } from './dto/tours-query.dto';
import { UpdateTourDto } from './dto/update-tour.dto';
import { tourNotFound, ToursService } from './tours.service';

export const TOUR = new PathResource('tour', tourNotFound);

/**
 * Tours, super-admin only (the `super-admin` hat exactly: another hat → 403 `forbidden`).
 * `GET /tour/{id}` is registered after the providers' and activities' `GET /tour/providers` and
 * `GET /tour/activities` (app.module.ts lists their modules first), so those keep their paths.
 */
@ApiTags('tours')
@Controller('tour')
export class ToursController {
  constructor(private readonly tours: ToursService) {}

  @Get()
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'listTours',
    summary: 'List tours',
    description:
      'Newest first, then id; without steps. `search` matches part of the name, any case; `status[]` ' +
      'and `partner_organization_id` filter (no region filter). `per_page` is 25 by default and ' +
      'lowered to 100 silently.',
  })
  @ApiOkResponse({ type: TourListResponseDto, description: 'One page of tours.' })
  list(@Query() query: ToursQueryDto): Promise<Paginated<TourResponseDto>> {
    return this.tours.list(query);
  }

  @Post()
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'createTour',
    summary: 'Create a tour',
    description:
      'Created `pending`; a `status` in the body → 422. `partner_organization_id` must name an ' +
      'organization and `region_organization_id` (optional) an organization of type `region` (else 422).',
  })
  @ApiCreatedResponse({ type: TourResponseDto, description: 'The tour, without steps.' })
  @ApiJsonBodyErrors()
  create(@Body() dto: CreateTourDto): Promise<TourResponseDto> {
    return this.tours.create(dto);
  }

  @Get(':id')
  @SuperAdminOnly()
  @TOUR.route()
  @ApiOperation({
    operationId: 'getTour',
    summary: 'A tour with its steps',
    description: 'Steps by position, each with its plans by priority (1 = plan A).',
  })
  @ApiOkResponse({ type: TourDetailsResponseDto, description: 'The tour with its steps.' })
  details(@TOUR.param() id: string): Promise<TourDetailsResponseDto> {
    return this.tours.details(id);
  }

  @Put(':id')
  @SuperAdminOnly()
  @TOUR.route()
  @ApiOperation({
    operationId: 'updateTour',
    summary: 'Update a tour',
    description:
      'Every field optional: an absent one stays. An absent `region_organization_id` keeps the link, ' +
      'null clears it. `status` is `pending`, `active` or `archived`.',
  })
  @ApiOkResponse({ type: TourResponseDto, description: 'The tour, without steps.' })
  @ApiJsonBodyErrors()
  update(@TOUR.param() id: string, @Body() dto: UpdateTourDto): Promise<TourResponseDto> {
    return this.tours.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @SuperAdminOnly()
  @TOUR.route()
  @ApiOperation({
    operationId: 'deleteTour',
    summary: 'Delete a tour',
    description: 'Its steps and their plans go with it; the activities stay.',
  })
  @ApiNoContentResponse('Deleted.')
  delete(@TOUR.param() id: string): Promise<void> {
    return this.tours.delete(id);
  }

  @Post(':id/duplicate')
  @SuperAdminOnly()
  @TOUR.route()
  @ApiOperation({
    operationId: 'duplicateTour',
    summary: 'Duplicate a tour',
    description:
      'A `pending` copy with the same name, color, partner and region link, and a copy of every ' +
      'step naming the same activities (activities are shared rows).',
  })
  @ApiCreatedResponse({ type: TourDetailsResponseDto, description: 'The copy with its steps.' })
  duplicate(@TOUR.param() id: string): Promise<TourDetailsResponseDto> {
    return this.tours.duplicate(id);
  }
}
