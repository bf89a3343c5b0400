import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { SuperAdminOnly } from '../access/access.decorators';
import { ApiJsonBodyErrors, ApiNoContentResponse } from '../common/api-responses';
import { CreateTourStepDto } from './dto/create-tour-step.dto';
import { ReorderTourStepsDto } from './dto/reorder-tour-steps.dto';
import { TourStepResponseDto } from './dto/tour-step.response';
import { UpdateTourStepDto } from './dto/update-tour-step.dto';
import { TourStepsService } from './tour-steps.service';
import { TOUR } from './tours.controller';

const STEP_ID_PARAM = ApiParam({ name: 'stepId', format: 'uuid', description: 'A step of the tour.' });
const NO_STEP = "no tour has this id, or the step is not one of the tour's.";
const ACTIVITY_IDS_RULES =
  '`activity_ids` is the plan order (first = plan A, priority 1): existing activities, each at most ' +
  'once (else 422 on `activity_ids.N`). `time` is written `HH:MM` only and read back `HH:MM:SS`; ' +
  '`day_number` is an integer ≥ 1, null for an undated step. A `name` is ignored (a step is named ' +
  'after plan A).';

/** Steps of a tour, super-admin only. `reorder` is declared before `:stepId` so it keeps its path. */
@ApiTags('tours')
@Controller('tour/:id/steps')
export class TourStepsController {
  constructor(private readonly steps: TourStepsService) {}

  @Post()
  @SuperAdminOnly()
  @TOUR.route()
  @ApiOperation({
    operationId: 'createTourStep',
    summary: 'Add a step',
    description: `At the end of the tour. ${ACTIVITY_IDS_RULES}`,
  })
  @ApiCreatedResponse({ type: TourStepResponseDto, description: 'The step.' })
  @ApiJsonBodyErrors()
  create(@TOUR.param() tourId: string, @Body() dto: CreateTourStepDto): Promise<TourStepResponseDto> {
    return this.steps.create(tourId, dto);
  }

  @Put('reorder')
  @SuperAdminOnly()
  @TOUR.route()
  @ApiOperation({
    operationId: 'reorderTourSteps',
    summary: 'Reorder the steps',
    description:
      "`step_ids` must be a permutation of the tour's steps (else 422). Answers the steps in order.",
  })
  @ApiOkResponse({
    type: TourStepResponseDto,
    isArray: true,
    description: 'The steps, by their new position.',
  })
  @ApiJsonBodyErrors()
  reorder(@TOUR.param() tourId: string, @Body() dto: ReorderTourStepsDto): Promise<TourStepResponseDto[]> {
    return this.steps.reorder(tourId, dto);
  }

  @Get(':stepId')
  @SuperAdminOnly()
  @TOUR.route(NO_STEP)
  @STEP_ID_PARAM
  @ApiOperation({ operationId: 'getTourStep', summary: 'A step' })
  @ApiOkResponse({ type: TourStepResponseDto, description: 'The step.' })
  details(@TOUR.param() tourId: string, @Param('stepId') stepId: string): Promise<TourStepResponseDto> {
    return this.steps.details(tourId, stepId);
  }

  @Put(':stepId')
  @SuperAdminOnly()
  @TOUR.route(NO_STEP)
  @STEP_ID_PARAM
  @ApiOperation({
    operationId: 'updateTourStep',
    summary: 'Update a step',
    description:
      'An absent field stays; null clears `day_number` or `time`. `activity_ids` replaces the plans ' +
      `as a whole (\`[]\` clears them, absent keeps them). ${ACTIVITY_IDS_RULES}`,
  })
  @ApiOkResponse({ type: TourStepResponseDto, description: 'The step.' })
  @ApiJsonBodyErrors()
  update(
    @TOUR.param() tourId: string,
    @Param('stepId') stepId: string,
    @Body() dto: UpdateTourStepDto,
  ): Promise<TourStepResponseDto> {
    return this.steps.update(tourId, stepId, dto);
  }

  @Delete(':stepId')
  @HttpCode(204)
  @SuperAdminOnly()
  @TOUR.route(NO_STEP)
  @STEP_ID_PARAM
  @ApiOperation({
    operationId: 'deleteTourStep',
    summary: 'Delete a step',
    description: 'With its plans (the activities stay); the following steps move up one place.',
  })
  @ApiNoContentResponse('Deleted.')
  delete(@TOUR.param() tourId: string, @Param('stepId') stepId: string): Promise<void> {
    return this.steps.delete(tourId, stepId);
  }
}
