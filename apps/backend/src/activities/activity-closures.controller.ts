import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { SuperAdminOnly } from '../access/access.decorators';
import { ApiJsonBodyErrors, ApiNoContentResponse } from '../common/api-responses';
import { PathResource } from '../common/resource-id';
import { activityNotFound } from './activities.service';
import { ActivityClosuresService } from './activity-closures.service';
import { ActivityClosureResponseDto } from './dto/activity-closure.response';
import { CreateActivityClosureDto } from './dto/create-activity-closure.dto';

const ACTIVITY = new PathResource('activity', activityNotFound, 'activityId');

@ApiTags('activities')
@Controller('tour/activity/:activityId/closures')
export class ActivityClosuresController {
  constructor(private readonly closures: ActivityClosuresService) {}

  @Get()
  @SuperAdminOnly()
  @ACTIVITY.route()
  @ApiOperation({
    operationId: 'listActivityClosures',
    summary: "An activity's closures",
    description: 'A bare array, by `starts_on` (then `ends_on`, id). Both dates are inclusive.',
  })
  @ApiOkResponse({ type: ActivityClosureResponseDto, isArray: true, description: 'The closures.' })
  list(@ACTIVITY.param() activityId: string): Promise<ActivityClosureResponseDto[]> {
    return this.closures.list(activityId);
  }

  @Post()
  @SuperAdminOnly()
  @ACTIVITY.route()
  @ApiOperation({
    operationId: 'createActivityClosure',
    summary: 'Close an activity on a date range',
    description:
      '`starts_on` and `ends_on` are `YYYY-MM-DD`, both inclusive; `ends_on` before `starts_on` → 422. ' +
      'The activity has no capacity on those dates.',
  })
  @ApiCreatedResponse({ type: ActivityClosureResponseDto, description: 'The closure.' })
  @ApiJsonBodyErrors()
  create(
    @ACTIVITY.param() activityId: string,
    @Body() dto: CreateActivityClosureDto,
  ): Promise<ActivityClosureResponseDto> {
    return this.closures.create(activityId, dto);
  }

  @Delete(':closureId')
  @HttpCode(204)
  @SuperAdminOnly()
  @ACTIVITY.route("no activity has this id, or the closure is not one of the activity's.")
  @ApiParam({ name: 'closureId', format: 'uuid', description: "One of the activity's closures." })
  @ApiOperation({ operationId: 'deleteActivityClosure', summary: 'Reopen: delete a closure' })
  @ApiNoContentResponse('Deleted.')
  delete(@ACTIVITY.param() activityId: string, @Param('closureId') closureId: string): Promise<void> {
    return this.closures.delete(activityId, closureId);
  }
}
