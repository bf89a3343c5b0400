import { EmailField, EnumField, TextField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { PROVIDER_STATUSES, type ProviderStatus } from '../provider.entity';
import { BodyCoordinateField } from './coordinate-fields';
import { WebsiteField } from './provider-fields';

/**
 * `PUT /tour/provider/{id}` (super-admin): every field optional; an absent one stays, null clears
 * a nullable one. `latitude` and `longitude` come together (both null clears the location).
 * `origin` cannot change.
 */
export class UpdateProviderDto {
  @SingleLine()
  @TextField({ max: 255, optional: true })
  name?: string;

  @TextField({ max: 5000, optional: true, nullable: true })
  description?: string | null;

  @TextField({ max: 255, optional: true, nullable: true })
  address?: string | null;

  @TextField({ max: 255, optional: true, nullable: true })
  city?: string | null;

  @TextField({ max: 255, optional: true, nullable: true })
  country?: string | null;

  @BodyCoordinateField('latitude')
  latitude?: number | null;

  @BodyCoordinateField('longitude')
  longitude?: number | null;

  @WebsiteField()
  website?: string | null;

  @TextField({ max: 64, optional: true, nullable: true })
  phone?: string | null;

  @EmailField({ optional: true, nullable: true })
  email?: string | null;

  @EnumField(PROVIDER_STATUSES, 'ProviderStatus', { optional: true })
  status?: ProviderStatus;
}
