import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { transactional } from '../database/transactions';
import { TourStepActivity } from './tour-step-activity.entity';
import { TourStep } from './tour-step.entity';

/** A step with its plans' activity ids by priority (plan A first). */
export interface StepView {
  id: string;
  tourId: string;
  position: number;
  dayNumber: number | null;
  /** As stored: `HH:MM:SS`. */
  time: string | null;
  activityIds: string[];
}

export interface StepFields {
  dayNumber: number | null;
  /** `HH:MM:SS`. */
  time: string | null;
}

interface StepRow {
  id: string;
  tour_id: string;
  position: number;
  day_number: number | null;
  time: string | null;
  activity_ids: string[];
}

/** Steps with their plans, in one query (tour_steps_tour_position_unique, then the plans' primary key). */
const STEP_SELECT = `
  SELECT s.id, s.tour_id, s.position, s.day_number, s.time::text AS time,
         ARRAY(SELECT l.activity_id FROM tour_step_activities l
                WHERE l.step_id = s.id ORDER BY l.priority) AS activity_ids
    FROM tour_steps s`;

const toView = (row: StepRow): StepView => ({
  id: row.id,
  tourId: row.tour_id,
  position: row.position,
  dayNumber: row.day_number,
  time: row.time,
  activityIds: row.activity_ids,
});

/** The one writer of `tour_steps` and `tour_step_activities` (the tours feature). */
@Injectable()
export class TourStepsRepository {
  constructor(
    @InjectRepository(TourStep) private readonly plainSteps: Repository<TourStep>,
    @InjectRepository(TourStepActivity) private readonly plainPlans: Repository<TourStepActivity>,
  ) {}

  private get steps(): Repository<TourStep> {
    return transactional(this.plainSteps);
  }

  private get plans(): Repository<TourStepActivity> {
    return transactional(this.plainPlans);
  }

  /** The tour's steps by position, each with its plans: one query whatever the number of steps. */
  async findOfTour(tourId: string): Promise<StepView[]> {
    const rows: StepRow[] = await this.steps.query(
      `${STEP_SELECT} WHERE s.tour_id = $1 ORDER BY s.position`,
      [tourId],
    );
    return rows.map(toView);
  }

  async findOne(tourId: string, stepId: string): Promise<StepView | null> {
    const rows: StepRow[] = await this.steps.query(`${STEP_SELECT} WHERE s.tour_id = $1 AND s.id = $2`, [
      tourId,
      stepId,
    ]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The tour's step ids by position. */
  async findIdsOfTour(tourId: string): Promise<string[]> {
    const found = await this.steps.find({
      select: { id: true },
      where: { tourId },
      order: { position: 'ASC' },
    });
    return found.map((s) => s.id);
  }

  /** A step at the end of the tour (call with the tour locked, so positions stay 1..n). */
  async append(tourId: string, fields: StepFields): Promise<string> {
    const rows: { id: string }[] = await this.steps.query(
      `INSERT INTO tour_steps (tour_id, position, day_number, time)
       SELECT $1, COALESCE(max(position), 0) + 1, $2, $3::time FROM tour_steps WHERE tour_id = $1
       RETURNING id`,
      [tourId, fields.dayNumber, fields.time],
    );
    return rows[0].id;
  }

  /** Applies the changes (none: only `updated_at`, e.g. new plans). */
  async update(stepId: string, changes: Partial<StepFields>): Promise<void> {
    await this.steps.update({ id: stepId }, { ...changes, updatedAt: new Date() });
  }

  /** Replaces the step's plans: `activityIds[0]` becomes priority 1 (plan A). */
  async replacePlans(stepId: string, activityIds: string[]): Promise<void> {
    await this.plans.delete({ stepId });
    if (activityIds.length > 0) {
      await this.plans.insert(
        activityIds.map((activityId, index) => ({ stepId, priority: index + 1, activityId })),
      );
    }
  }

  /** Deletes the step (its plans go with it) and closes the gap in the positions; false if not the tour's. */
  async delete(tourId: string, stepId: string): Promise<boolean> {
    const result = await this.steps.delete({ id: stepId, tourId });
    if ((result.affected ?? 0) === 0) return false;
    await this.compact(tourId);
    return true;
  }

  /**
   * Positions 1..n in the order of `stepIds` (all the tour's steps), in one statement; the unique
   * (tour_id, position) is checked at commit, so swaps never collide midway.
   */
  async setOrder(tourId: string, stepIds: string[]): Promise<void> {
    if (stepIds.length === 0) return;
    await this.steps.query(
      `UPDATE tour_steps s SET position = o.position, updated_at = now()
         FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, position)
        WHERE s.tour_id = $1 AND s.id = o.id AND s.position <> o.position`,
      [tourId, stepIds],
    );
  }

  /**
   * Copies every step of `fromTourId`, with its plans (the same activity ids), into `toTourId`:
   * two statements whatever the number of steps.
   */
  async copySteps(fromTourId: string, toTourId: string): Promise<void> {
    await this.steps.query(
      `WITH source AS (
         SELECT id, position, day_number, time, gen_random_uuid() AS new_id
           FROM tour_steps WHERE tour_id = $1
       ), copied AS (
         INSERT INTO tour_steps (id, tour_id, position, day_number, time)
         SELECT new_id, $2, position, day_number, time FROM source
       )
       INSERT INTO tour_step_activities (step_id, priority, activity_id)
       SELECT source.new_id, l.priority, l.activity_id
         FROM tour_step_activities l JOIN source ON source.id = l.step_id`,
      [fromTourId, toTourId],
    );
  }

  private async compact(tourId: string): Promise<void> {
    await this.steps.query(
      `UPDATE tour_steps s SET position = o.position
         FROM (SELECT id, row_number() OVER (ORDER BY position) AS position FROM tour_steps WHERE tour_id = $1) o
        WHERE s.id = o.id AND s.position <> o.position`,
      [tourId],
    );
  }
}
