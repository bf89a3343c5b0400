import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Paginated } from '@rt/contracts';
import type { AuthUser, ViewingContext } from '../access/access';
import { CurrentUser, Viewing, ViewingAs } from '../access/access.decorators';
import { ApiJsonBodyErrors, ApiResourceNotFoundResponse } from '../common/api-responses';
import { ResourceId } from '../common/resource-id';
import { CreateTripDto } from './dto/create-trip.dto';
import { TripListResponseDto } from './dto/trip-list.response';
import { TripResponseDto } from './dto/trip.response';
import { TripsQueryDto } from './dto/trips-query.dto';
import { tripNotFound, TripsService } from './trips.service';

@ApiTags('trips')
@Controller('trips')
export class TripsController {
  constructor(private readonly trips: TripsService) {}

  @Post()
  @ViewingAs()
  @ApiOperation({
    operationId: 'createTrip',
    summary: 'Start a trip on a claimed activation code',
    description:
      'By the user who claimed the code, under any hat they hold (`traveller` included). In one ' +
      'transaction: the code gets `used_at` (it is `is_used` from now on) and the trip window ' +
      '`starts_on` through `ends_on` (the date of the last dated step: starts_on + largest ' +
      'day_number − 1), during which it is `is_active` (status `active`, then `used`); its history ' +
      'records a `trip_start`; the trip is written. Its travellers count in the region capacity ' +
      'roll-up of `starts_on` (`GET /organizations/{id}/capacity`). 422 with a `reason`: ' +
      '`not_claimed` (the caller did not claim this code, an unknown id included), ' +
      '`code_cancelled`, `code_reimbursed`, `code_expired`, `code_used` (on `activation_code_id`); ' +
      '`tour_not_active` (unknown, pending or archived tour, on `tour_id`); `starts_in_past` ' +
      '(`starts_on` before today in Europe/Zurich). A malformed field (`travellers` outside 1..100, ' +
      '`starts_on` not a `YYYY-MM-DD` date) → 422 without a reason.',
  })
  @ApiCreatedResponse({ type: TripResponseDto, description: 'The trip.' })
  @ApiJsonBodyErrors()
  create(@Body() dto: CreateTripDto, @CurrentUser() user: AuthUser): Promise<TripResponseDto> {
    return this.trips.create(dto, user.id);
  }

  @Get()
  @ViewingAs()
  @ApiOperation({
    operationId: 'listTrips',
    summary: "The caller's trips",
    description:
      'The trips the caller started, under any hat, newest first. `per_page` is 25 by default and ' +
      'lowered to 100 silently; `meta.total` is the count of their trips.',
  })
  @ApiOkResponse({ type: TripListResponseDto, description: 'One page of trips.' })
  list(@Query() query: TripsQueryDto, @CurrentUser() user: AuthUser): Promise<Paginated<TripResponseDto>> {
    return this.trips.listOwn(query, user.id);
  }

  @Get(':id')
  @ViewingAs()
  @ApiParam({ name: 'id', format: 'uuid', description: 'The trip.' })
  @ApiOperation({
    operationId: 'getTrip',
    summary: 'A trip',
    description:
      'For its traveller under any hat, or anyone under the `super-admin` hat. Another user’s trip ' +
      'reads as absent (404).',
  })
  @ApiOkResponse({ type: TripResponseDto, description: 'The trip.' })
  @ApiResourceNotFoundResponse('no trip of the caller has this id (a malformed id included).')
  details(
    @ResourceId('id', tripNotFound) id: string,
    @Viewing() viewing: ViewingContext,
  ): Promise<TripResponseDto> {
    return this.trips.details(id, viewing);
  }
}
