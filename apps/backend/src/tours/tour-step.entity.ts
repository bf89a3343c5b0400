import { Check, Column, Entity, Unique } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Tour } from './tour.entity';

/**
 * A step of a tour: its place in the tour (`position`, 1..n without gaps), an optional day
 * (`day_number` ≥ 1; null: undated, which the capacity roll-up cannot place) and time of day. Its
 * plans are `tour_step_activities`. Positions are unique per tour, checked at commit (deferred),
 * so a reorder may swap them in one statement.
 */
@Entity('tour_steps')
@Check('tour_steps_day_number_check', `"day_number" IS NULL OR "day_number" >= 1`)
@Check('tour_steps_position_check', `"position" >= 1`)
@Unique('tour_steps_tour_position_unique', ['tourId', 'position'], { deferrable: 'INITIALLY DEFERRED' })
export class TourStep {
  @UuidPrimaryColumn()
  id!: string;

  @UuidColumn('tour_id')
  tourId!: string;

  @Column({ type: 'integer' })
  position!: number;

  @Column({ name: 'day_number', type: 'integer', nullable: true })
  dayNumber!: number | null;

  /** `HH:MM:SS` as PostgreSQL reads a `time` back. */
  @Column({ type: 'time', nullable: true })
  time!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;

  @BelongsTo(() => Tour, 'tour_id', 'CASCADE')
  tour?: Tour;
}
