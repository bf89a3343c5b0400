import { DateField, IntegerField, UuidField } from '@rt/contracts';

/** The largest party one trip takes. */
export const MAX_TRAVELLERS = 100;

/** Body of `POST /trips`. */
export class CreateTripDto {
  @UuidField({ description: 'A code the caller claimed (`POST /activation-codes/claim`).' })
  activation_code_id!: string;

  @UuidField({ description: 'An `active` tour.' })
  tour_id!: string;

  @DateField({ description: 'The departure day (`YYYY-MM-DD`): today in Europe/Zurich or later.' })
  starts_on!: string;

  @IntegerField({ min: 1, max: MAX_TRAVELLERS, description: 'How many travellers go.' })
  travellers!: number;
}
