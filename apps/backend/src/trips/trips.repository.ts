import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Page } from '@rt/contracts';
import { pageWithTotalSql, splitPage } from '@rt/database';
import { Repository } from 'typeorm';
import { TransactionalRepository } from '../database/transactions';
import type { TourStatus } from '../tours/tour.entity';
import { Trip } from './trip.entity';

/** A trip as its resource shows it (dates `YYYY-MM-DD`). */
export interface TripView {
  id: string;
  activationCodeId: string;
  userId: string | null;
  tourId: string | null;
  startsOn: string;
  endsOn: string;
  travellers: number;
  createdAt: Date;
}

export type NewTrip = Omit<TripView, 'createdAt'>;

/** What a trip's start needs to know of its tour (read from the tours feature's tables). */
export interface TourForTrip {
  status: TourStatus;
  /** The largest day_number of its steps; null when no step is dated. */
  largestDayNumber: number | null;
}

interface TripRow {
  id: string;
  activation_code_id: string;
  user_id: string | null;
  tour_id: string | null;
  starts_on: string;
  ends_on: string;
  travellers: number;
  created_at: Date;
}

const TRIP_COLUMNS = `t.id, t.activation_code_id, t.user_id, t.tour_id,
       to_char(t.starts_on, 'YYYY-MM-DD') AS starts_on, to_char(t.ends_on, 'YYYY-MM-DD') AS ends_on,
       t.travellers, t.created_at`;

const toTripView = (row: TripRow): TripView => ({
  id: row.id,
  activationCodeId: row.activation_code_id,
  userId: row.user_id,
  tourId: row.tour_id,
  startsOn: row.starts_on,
  endsOn: row.ends_on,
  travellers: Number(row.travellers),
  createdAt: row.created_at,
});

/**
 * The one writer of `trips`. Reads the tour a trip starts on from `tours` and `tour_steps` (owned
 * by the tours feature; read only).
 */
@Injectable()
export class TripsRepository extends TransactionalRepository<Trip> {
  constructor(@InjectRepository(Trip) plain: Repository<Trip>) {
    super(plain);
  }

  /** The tour's status and its largest day_number (tour_steps_tour_position_unique leads by tour_id). */
  async findTourForTrip(tourId: string): Promise<TourForTrip | null> {
    const rows: { status: TourStatus; largest_day_number: number | null }[] = await this.repo.query(
      `SELECT t.status, (SELECT max(s.day_number) FROM tour_steps s WHERE s.tour_id = t.id) AS largest_day_number
         FROM tours t WHERE t.id = $1`,
      [tourId],
    );
    if (!rows[0]) return null;
    const largest = rows[0].largest_day_number;
    return { status: rows[0].status, largestDayNumber: largest === null ? null : Number(largest) };
  }

  async insert(trip: NewTrip): Promise<TripView> {
    const rows: TripRow[] = await this.repo.query(
      `INSERT INTO trips AS t (id, activation_code_id, user_id, tour_id, starts_on, ends_on, travellers)
       VALUES ($1, $2, $3, $4, $5::date, $6::date, $7)
       RETURNING ${TRIP_COLUMNS}`,
      [trip.id, trip.activationCodeId, trip.userId, trip.tourId, trip.startsOn, trip.endsOn, trip.travellers],
    );
    return toTripView(rows[0]);
  }

  async findById(id: string): Promise<TripView | null> {
    const rows: TripRow[] = await this.repo.query(`SELECT ${TRIP_COLUMNS} FROM trips t WHERE t.id = $1`, [
      id,
    ]);
    return rows[0] ? toTripView(rows[0]) : null;
  }

  /** One page of the user's trips, newest first then id (trips_user_created_idx), and their count. */
  async findPageOfUser(userId: string, page: Page): Promise<[TripView[], number]> {
    const sql = pageWithTotalSql({
      counted: 'trips t WHERE t.user_id = $1',
      page: `SELECT ${TRIP_COLUMNS} FROM trips t WHERE t.user_id = $1
              ORDER BY t.created_at DESC, t.id DESC
              LIMIT $2 OFFSET $3`,
      values: [userId, page.limit, page.offset],
    });
    const rows: (TripRow & { total: number })[] = await this.repo.query(sql.text, sql.values);
    const { items, total } = splitPage(rows, toTripView);
    return [items, total];
  }
}
