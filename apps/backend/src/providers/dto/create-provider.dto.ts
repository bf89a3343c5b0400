import { EmailField, TextField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { BodyCoordinateField } from './coordinate-fields';
import { WebsiteField } from './provider-fields';

/**
 * `POST /tour/provider` (super-admin): a provider met while planning, created with origin
 * `on_the_fly` and status `draft` (neither is accepted from the body).
 */
export class CreateProviderDto {
  @SingleLine()
  @TextField({ max: 255, example: 'Zermatt Mountain Guides' })
  name!: string;

  @TextField({ max: 5000, optional: true, nullable: true })
  description?: string | null;

  @TextField({ max: 255, optional: true, nullable: true, example: 'Bahnhofstrasse 58' })
  address?: string | null;

  @TextField({ max: 255, optional: true, nullable: true, example: 'Zermatt' })
  city?: string | null;

  @TextField({ max: 255, optional: true, nullable: true, example: 'CH' })
  country?: string | null;

  @BodyCoordinateField('latitude')
  latitude?: number | null;

  @BodyCoordinateField('longitude')
  longitude?: number | null;

  @WebsiteField()
  website?: string | null;

  @TextField({ max: 64, optional: true, nullable: true, example: '+41 27 966 24 60' })
  phone?: string | null;

  @EmailField({ optional: true, nullable: true })
  email?: string | null;
}
