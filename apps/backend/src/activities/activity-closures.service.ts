import { Injectable } from '@nestjs/common';
import { AppError } from '@rt/errors';
import { isUUID } from 'class-validator';
import { ActivityClosuresRepository } from './activity-closures.repository';
import { ActivitiesService, activityNotFound } from './activities.service';
import { toActivityClosureResponse } from './activity.mapper';
import { ActivityClosureResponseDto } from './dto/activity-closure.response';
import { CreateActivityClosureDto } from './dto/create-activity-closure.dto';

/** Closures of an activity: date ranges (both ends inclusive) on which its capacity is zero. */
@Injectable()
export class ActivityClosuresService {
  constructor(
    private readonly closures: ActivityClosuresRepository,
    private readonly activities: ActivitiesService,
  ) {}

  /** The activity's closures by start date (then end, id); 404 for an unknown activity. */
  async list(activityId: string): Promise<ActivityClosureResponseDto[]> {
    if (!(await this.activities.exists(activityId))) throw activityNotFound();
    return (await this.closures.findOfActivity(activityId)).map(toActivityClosureResponse);
  }

  async create(activityId: string, dto: CreateActivityClosureDto): Promise<ActivityClosureResponseDto> {
    if (!(await this.activities.exists(activityId))) throw activityNotFound();
    const closure = await this.closures.create({
      activityId,
      startsOn: dto.starts_on,
      endsOn: dto.ends_on,
      reason: dto.reason ?? null,
    });
    return toActivityClosureResponse(closure);
  }

  /** 404 for an unknown activity, or a closure that is not one of this activity's. */
  async delete(activityId: string, closureId: string): Promise<void> {
    if (!(await this.activities.exists(activityId))) throw activityNotFound();
    if (!isUUID(closureId) || !(await this.closures.delete(activityId, closureId))) {
      throw AppError.notFound('Closure not found.');
    }
  }
}
