import { Check, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { UuidColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Activity } from '../activities/activity.entity';
import { TourStep } from './tour-step.entity';

/**
 * A plan of a step: the activity at `priority` (1 = plan A, then B …). An activity appears at
 * most once per step. Activities are shared rows and never deleted (RESTRICT); a step's plans go
 * with the step (CASCADE).
 */
@Entity('tour_step_activities')
@Check('tour_step_activities_priority_check', `"priority" >= 1`)
@Unique('tour_step_activities_step_activity_unique', ['stepId', 'activityId'])
@Index('tour_step_activities_activity_idx', ['activityId'])
export class TourStepActivity {
  @PrimaryColumn({ name: 'step_id', type: 'uuid' })
  stepId!: string;

  @PrimaryColumn({ type: 'integer' })
  priority!: number;

  @UuidColumn('activity_id')
  activityId!: string;

  @BelongsTo(() => TourStep, 'step_id', 'CASCADE')
  step?: TourStep;

  @BelongsTo(() => Activity, 'activity_id', 'RESTRICT')
  activity?: Activity;
}
