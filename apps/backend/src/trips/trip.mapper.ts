import { TripResponseDto } from './dto/trip.response';
import type { TripView } from './trips.repository';

export const toTripResponse = (trip: TripView): TripResponseDto => ({
  id: trip.id,
  activation_code_id: trip.activationCodeId,
  tour_id: trip.tourId,
  starts_on: trip.startsOn,
  ends_on: trip.endsOn,
  travellers: trip.travellers,
  created_at: trip.createdAt.toISOString(),
});
