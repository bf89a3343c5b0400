import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { SuperAdminOnly } from '../access/access.decorators';
import { ApiResourceNotFoundResponse } from '../common/api-responses';
import { ResourceId } from '../common/resource-id';
import { CapacityService, notARegion } from './capacity.service';
import { CapacityQueryDto } from './dto/capacity-query.dto';
import { RegionCapacityRangeResponseDto } from './dto/region-capacity-range.response';
import { RegionCapacityResponseDto } from './dto/region-capacity.response';

@ApiTags('organizations')
@Controller('organizations')
export class CapacityController {
  constructor(private readonly capacity: CapacityService) {}

  @Get(':id/capacity')
  @SuperAdminOnly()
  @ApiParam({
    name: 'id',
    format: 'uuid',
    description: 'A region organization; any other organization, or none (a malformed id included) → 404.',
  })
  @ApiOperation({
    operationId: 'getRegionCapacity',
    summary: 'Daily capacity roll-up of a region',
    description:
      'How many travellers departing on a date D the region’s `active` tours can take that day (the ' +
      'day’s capacity: trips already booked are not subtracted, the saturation relates them to it), ' +
      'and which step saturates first. Model (details and a worked example: ' +
      'apps/backend/docs/capacity.md):\n\n' +
      '- activity on a day: closed (a closure covers the day) → exact 0; `unlimited` → unlimited; ' +
      'an integer capacity → exact; null → unknown;\n' +
      '- step capacity = sum over its plans; the step with day_number k is evaluated on D + k − 1;\n' +
      '- tour capacity = minimum over its dated steps (unlimited ones ignored); steps without ' +
      'day_number are only counted (`unplaceable_steps_count`);\n' +
      '- region capacity = sum over its active tours;\n' +
      '- demand = travellers of the tour’s trips departing on D (`POST /trips`); trips that ' +
      'departed earlier do not count for D;\n' +
      '- fill rate of a step = demand / step capacity; tour saturation = the largest fill rate over ' +
      'its dated steps; region saturation = region demand / region capacity.\n\n' +
      'Exactness: all exact → exact; in a sum any unlimited → unlimited, in a minimum unlimited ' +
      'parts are ignored (all unlimited → unlimited); known and unknown mixed → partial (value from ' +
      'the known parts); all unknown → unknown. Saturation is a fraction (0.4 = 40%): exact 0 on ' +
      'an unlimited capacity, unknown on an unknown one.\n\n' +
      'One date (`date`, default today in Europe/Zurich) answers the one-day body; `from` and `to` ' +
      '(both, at most 62 days, `from` ≤ `to`, not with `date`) answer `{organization_id, from, to, ' +
      'days}` with the one-day body of each date, read in the same four statements. A malformed ' +
      'date or a bad combination → 422.',
  })
  @ApiExtraModels(RegionCapacityResponseDto, RegionCapacityRangeResponseDto)
  @ApiOkResponse({
    description: 'The one-day roll-up, or with `from` and `to` one roll-up per date.',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(RegionCapacityResponseDto) },
        { $ref: getSchemaPath(RegionCapacityRangeResponseDto) },
      ],
    },
  })
  @ApiResourceNotFoundResponse('no organization of type region has this id (a malformed id included).')
  rollUp(
    @ResourceId('id', notARegion) id: string,
    @Query() query: CapacityQueryDto,
  ): Promise<RegionCapacityResponseDto | RegionCapacityRangeResponseDto> {
    return this.capacity.rollUp(id, query);
  }
}
