import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Paginated } from '@rt/contracts';
import { SuperAdminOnly } from '../access/access.decorators';
import { ApiJsonBodyErrors } from '../common/api-responses';
import { PathResource } from '../common/resource-id';
import { ActivitiesService, activityNotFound } from './activities.service';
import { ActivitiesQueryDto } from './dto/activities-query.dto';
import { ActivityListResponseDto } from './dto/activity-list.response';
import { ActivityResponseDto } from './dto/activity.response';
import { CreateActivityDto } from './dto/create-activity.dto';
import { UpdateActivityDto } from './dto/update-activity.dto';

const ACTIVITY = new PathResource('activity', activityNotFound);
const CREATE_DESCRIPTION =
  '`provider_id` must name a provider and `tags` existing tags (else 422 on the field, `tags.N` per ' +
  'item). `capacity` (integer ≥ 0, null = unknown) and `unlimited: true` are mutually exclusive (422).';

@ApiTags('activities')
@Controller('tour')
export class ActivitiesController {
  constructor(private readonly activities: ActivitiesService) {}

  @Get('activities')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'listActivities',
    summary: 'List activities',
    description:
      'By name, then id. `search` matches part of the name, any case; `provider_id` and `tag_ids[]` ' +
      '(any of the tags) filter. `per_page` is 25 by default and lowered to 100 silently.',
  })
  @ApiOkResponse({ type: ActivityListResponseDto, description: 'One page of activities.' })
  list(@Query() query: ActivitiesQueryDto): Promise<Paginated<ActivityResponseDto>> {
    return this.activities.list(query);
  }

  @Post('activity')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'createActivity',
    summary: 'Create an activity',
    description: CREATE_DESCRIPTION,
  })
  @ApiCreatedResponse({ type: ActivityResponseDto, description: 'The activity.' })
  @ApiJsonBodyErrors()
  create(@Body() dto: CreateActivityDto): Promise<ActivityResponseDto> {
    return this.activities.create(dto);
  }

  @Post('activities')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'createActivityAlias',
    summary: 'Create an activity (second spelling)',
    description: `The same as \`POST /tour/activity\`. ${CREATE_DESCRIPTION}`,
  })
  @ApiCreatedResponse({ type: ActivityResponseDto, description: 'The activity.' })
  @ApiJsonBodyErrors()
  createAlias(@Body() dto: CreateActivityDto): Promise<ActivityResponseDto> {
    return this.activities.create(dto);
  }

  @Get('activity/:id')
  @SuperAdminOnly()
  @ACTIVITY.route()
  @ApiOperation({ operationId: 'getActivity', summary: 'An activity' })
  @ApiOkResponse({ type: ActivityResponseDto, description: 'The activity.' })
  details(@ACTIVITY.param() id: string): Promise<ActivityResponseDto> {
    return this.activities.details(id);
  }

  @Put('activity/:id')
  @SuperAdminOnly()
  @ACTIVITY.route()
  @ApiOperation({
    operationId: 'updateActivity',
    summary: 'Update an activity',
    description:
      'Absent fields stay as they are. `image_id: null` detaches the image; `tags` replaces the whole ' +
      'set (`[]` clears it). The result may not be unlimited with a capacity: switching a numeric ' +
      'activity to unlimited takes `capacity: null, unlimited: true` together (`unlimited: true` alone ' +
      '→ 422 on `capacity`, nothing changed).',
  })
  @ApiOkResponse({ type: ActivityResponseDto, description: 'The activity.' })
  @ApiJsonBodyErrors()
  update(@ACTIVITY.param() id: string, @Body() dto: UpdateActivityDto): Promise<ActivityResponseDto> {
    return this.activities.update(id, dto);
  }
}
