import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { LIST_PAGE_RULES, paginated, Paginated, STORED_DATE_RANGE, toPage } from '@rt/contracts';
import { AppError } from '@rt/errors';
import type { ViewingContext } from '../access/access';
import type { TripStartRefusal } from '../activation-codes/activation-code-status';
import { ActivationCodesService } from '../activation-codes/activation-codes.service';
import { Clock } from '../common/clock';
import { Transactions } from '../database/transactions';
import { CreateTripDto } from './dto/create-trip.dto';
import { TripResponseDto } from './dto/trip.response';
import { TripsQueryDto } from './dto/trips-query.dto';
import { toTripResponse } from './trip.mapper';
import { CODE_REFUSAL_MESSAGES, startsInPast, tripVisibleTo } from './trip-rules';
import { tripEndsOn } from './trip-window';
import { TripsRepository } from './trips.repository';

/** Why `POST /trips` refuses, beyond the code's own reasons. */
export type TripRefusal = TripStartRefusal | 'tour_not_active' | 'starts_in_past';

export const tripNotFound = () => AppError.notFound('Trip not found.');

/** The rules of trips: a traveller starts a tour on a code they claimed; their trips. */
@Injectable()
export class TripsService {
  constructor(
    private readonly trips: TripsRepository,
    private readonly codes: ActivationCodesService,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /**
   * Starts a trip, in one transaction: the tour must be `active`, the departure today (Europe/
   * Zurich) or later, its last day (starts_on + largest day_number − 1) no later than the last
   * stored date (STORED_DATE_RANGE, docs/decisions.md D-71); the code moves (used, with the trip window and its history row) through
   * ActivationCodesService, then the trip row is written. Any refusal rolls everything back.
   */
  async create(dto: CreateTripDto, userId: string): Promise<TripResponseDto> {
    if (startsInPast(dto.starts_on, this.clock.now())) {
      throw AppError.validation(
        { starts_on: ['The starts on field must be today (Europe/Zurich) or a later date.'] },
        'starts_in_past' satisfies TripRefusal,
      );
    }
    const codeId = dto.activation_code_id.toLowerCase();
    const tourId = dto.tour_id.toLowerCase();
    const trip = await this.transactions.run(async () => {
      const tour = await this.trips.findTourForTrip(tourId);
      if (!tour || tour.status !== 'active') {
        // An unknown tour reads the same as one not open: travellers learn nothing of the others.
        throw AppError.validation(
          { tour_id: ['This tour is not open for trips.'] },
          'tour_not_active' satisfies TripRefusal,
        );
      }
      const id = randomUUID();
      const endsOn = tripEndsOn(dto.starts_on, tour.largestDayNumber);
      if (endsOn > STORED_DATE_RANGE.last) {
        // The departure is a stored date, and so is the last day derived from it (D-71).
        throw AppError.validation({
          starts_on: [
            `The starts on field must leave the trip's last day (day ${tour.largestDayNumber}) on or ` +
              `before ${STORED_DATE_RANGE.last}.`,
          ],
        });
      }
      const refusal = await this.codes.startTrip(codeId, userId, {
        tripId: id,
        tourId,
        startsOn: dto.starts_on,
        endsOn,
      });
      if (refusal)
        throw AppError.validation({ activation_code_id: [CODE_REFUSAL_MESSAGES[refusal]] }, refusal);
      return this.trips.insert({
        id,
        activationCodeId: codeId,
        userId,
        tourId,
        startsOn: dto.starts_on,
        endsOn,
        travellers: dto.travellers,
      });
    });
    return toTripResponse(trip);
  }

  /** The caller's own trips, newest first. */
  async listOwn(query: TripsQueryDto, userId: string): Promise<Paginated<TripResponseDto>> {
    const page = toPage(query, LIST_PAGE_RULES);
    const [trips, total] = await this.trips.findPageOfUser(userId, page);
    return paginated(trips.map(toTripResponse), total, page);
  }

  /** A trip for its traveller, or anyone's under the super-admin hat; any other → 404. */
  async details(id: string, viewing: ViewingContext): Promise<TripResponseDto> {
    const trip = await this.trips.findById(id);
    if (!trip) throw tripNotFound();
    if (!tripVisibleTo(trip, viewing)) throw tripNotFound();
    return toTripResponse(trip);
  }
}
