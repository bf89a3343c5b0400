import { DateField, IntegerField, UuidField } from '@rt/contracts';

/** The largest party one trip takes. */
export const MAX_TRAVELLERS = 100;

/** Body of `POST /trips`. */
export class CreateTripDto {
  @UuidField({ description: 'A code the caller claimed (`POST /activation-codes/claim`).' })
  activation_code_id!: string;

  @UuidField({ description: 'An `active` tour.' })
  tour_id!: string;

  @DateField({
    description:
      'The departure day (`YYYY-MM-DD`): today in Europe/Zurich or later, and the trip’s last day ' +
      '(`starts_on` + the tour’s largest `day_number` − 1) no later than 2999-12-31.',
  })
  starts_on!: string;

  @IntegerField({ min: 1, max: MAX_TRAVELLERS, description: 'How many travellers go.' })
  travellers!: number;
}
