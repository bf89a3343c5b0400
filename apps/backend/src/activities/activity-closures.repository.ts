import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { touchedAny } from '../database/row-statements';
import { TransactionalRepository } from '../database/transactions';
import { ActivityClosure } from './activity-closure.entity';

/** The one writer of `activity_closures`; other features go through ActivitiesService. */
@Injectable()
export class ActivityClosuresRepository extends TransactionalRepository<ActivityClosure> {
  constructor(@InjectRepository(ActivityClosure) plain: Repository<ActivityClosure>) {
    super(plain);
  }

  /** The activity's closures by start, end, id (activity_closures_activity_dates_idx). */
  findOfActivity(activityId: string): Promise<ActivityClosure[]> {
    return this.repo.find({
      where: { activityId },
      order: { startsOn: 'ASC', endsOn: 'ASC', id: 'ASC' },
    });
  }

  create(
    closure: Pick<ActivityClosure, 'activityId' | 'startsOn' | 'endsOn' | 'reason'>,
  ): Promise<ActivityClosure> {
    return this.repo.save(this.repo.create(closure));
  }

  /** Deletes the closure of that activity; false when it has none with this id. */
  async delete(activityId: string, closureId: string): Promise<boolean> {
    return touchedAny(await this.repo.delete({ id: closureId, activityId }));
  }
}
