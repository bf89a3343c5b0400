import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAtColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Activity } from './activity.entity';

/**
 * A date range (both ends inclusive) on which an activity is closed: its effective capacity is
 * zero on those dates. Indexed by (activity, start, end) for the listing and for the capacity
 * roll-up's "is this activity closed on D" (starts_on <= D AND ends_on >= D).
 */
@Entity('activity_closures')
@Check('activity_closures_range_check', `"ends_on" >= "starts_on"`)
@Index('activity_closures_activity_dates_idx', ['activityId', 'startsOn', 'endsOn'])
export class ActivityClosure {
  @UuidPrimaryColumn()
  id!: string;

  @UuidColumn('activity_id')
  activityId!: string;

  /** `YYYY-MM-DD` (TypeORM reads a date column as that string). */
  @Column({ name: 'starts_on', type: 'date' })
  startsOn!: string;

  @Column({ name: 'ends_on', type: 'date' })
  endsOn!: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  reason!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @BelongsTo(() => Activity, 'activity_id', 'CASCADE')
  activity?: Activity;
}
