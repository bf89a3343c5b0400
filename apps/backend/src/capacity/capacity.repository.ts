import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ClosureInput, DemandInput, StepPlanRow } from './capacity-inputs';

/**
 * The reads of the capacity roll-up, read-only over other features' tables: `tours`,
 * `tour_steps`, `tour_step_activities`, `activities` (tours feature), `activity_closures`
 * (activities) and `trips` (trips). A fixed number of statements per request, whatever the
 * number of tours, steps or days: the active tours, then (in parallel) their steps with plans and
 * activities, the closures overlapping the evaluation window, and the demand per tour and day.
 */
@Injectable()
export class CapacityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The region's `active` tours by name then id (tours_region_status_idx). */
  async findActiveTours(regionId: string): Promise<{ tourId: string; name: string }[]> {
    const rows: { id: string; name: string }[] = await this.dataSource.query(
      `SELECT t.id, t.name FROM tours t
        WHERE t.region_organization_id = $1 AND t.status = 'active'
        ORDER BY t.name, t.id`,
      [regionId],
    );
    return rows.map((row) => ({ tourId: row.id, name: row.name }));
  }

  /**
   * Every step of the tours with each plan's activity, one row per plan (a step without plans:
   * one row, plan fields null), rows of a step together. In no particular order: sums, minima and
   * maxima do not depend on it, and sorting 10,000 rows costs more than the join (hash joins over
   * tour_steps, tour_step_activities and activities).
   */
  async findStepPlans(tourIds: string[]): Promise<StepPlanRow[]> {
    const rows: {
      tour_id: string;
      step_id: string;
      day_number: number | null;
      activity_id: string | null;
      capacity: number | null;
      unlimited: boolean | null;
    }[] = await this.dataSource.query(
      `SELECT s.tour_id, s.id AS step_id, s.day_number, p.activity_id, a.capacity, a.unlimited
         FROM tour_steps s
         LEFT JOIN tour_step_activities p ON p.step_id = s.id
         LEFT JOIN activities a ON a.id = p.activity_id
        WHERE s.tour_id = ANY($1::uuid[])`,
      [tourIds],
    );
    return rows.map((row) => ({
      tourId: row.tour_id,
      stepId: row.step_id,
      dayNumber: row.day_number === null ? null : Number(row.day_number),
      activityId: row.activity_id,
      capacity: row.capacity === null ? null : Number(row.capacity),
      unlimited: row.unlimited,
    }));
  }

  /**
   * The closures of the activities planned on the tours' dated steps that overlap the evaluation
   * window: departures from `from` through `to`, whose last dated day is `to` + largest
   * day_number − 1 (computed here, so this statement need not wait for the steps)
   * (activity_closures_activity_dates_idx).
   */
  async findClosures(tourIds: string[], from: string, to: string): Promise<ClosureInput[]> {
    const rows: { activity_id: string; starts_on: string; ends_on: string }[] = await this.dataSource.query(
      `SELECT c.activity_id, to_char(c.starts_on, 'YYYY-MM-DD') AS starts_on,
              to_char(c.ends_on, 'YYYY-MM-DD') AS ends_on
         FROM activity_closures c
        WHERE c.activity_id IN (
                SELECT p.activity_id FROM tour_steps s JOIN tour_step_activities p ON p.step_id = s.id
                 WHERE s.tour_id = ANY($1::uuid[]) AND s.day_number IS NOT NULL)
          AND c.ends_on >= $2::date
          AND c.starts_on <= $3::date + (
                SELECT coalesce(max(s.day_number), 1) - 1 FROM tour_steps s WHERE s.tour_id = ANY($1::uuid[]))`,
      [tourIds, from, to],
    );
    return rows.map((row) => ({ activityId: row.activity_id, startsOn: row.starts_on, endsOn: row.ends_on }));
  }

  /** The travellers per tour and departure day from `from` through `to` (trips_tour_starts_on_idx). */
  async findDemand(tourIds: string[], from: string, to: string): Promise<DemandInput[]> {
    const rows: { tour_id: string; starts_on: string; travellers: number }[] = await this.dataSource.query(
      `SELECT tr.tour_id, to_char(tr.starts_on, 'YYYY-MM-DD') AS starts_on, sum(tr.travellers)::integer AS travellers
         FROM trips tr
        WHERE tr.tour_id = ANY($1::uuid[]) AND tr.starts_on BETWEEN $2::date AND $3::date
        GROUP BY tr.tour_id, tr.starts_on`,
      [tourIds, from, to],
    );
    return rows.map((row) => ({
      tourId: row.tour_id,
      startsOn: row.starts_on,
      travellers: Number(row.travellers),
    }));
  }
}
