import { ColorField, EnumField, TextField, UuidField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { TOUR_STATUSES, type TourStatus } from '../tour.entity';

/**
 * `PUT /tour/{id}` (super-admin): every field optional; an absent one stays.
 * `region_organization_id`: absent keeps the link, null clears it.
 */
export class UpdateTourDto {
  @SingleLine()
  @TextField({ max: 255, optional: true })
  name?: string;

  @ColorField({ optional: true })
  color?: string;

  @UuidField({ optional: true, description: 'An existing organization (else 422).' })
  partner_organization_id?: string;

  @UuidField({
    optional: true,
    nullable: true,
    description: 'An organization of type `region` (else 422). Absent: the link stays; null clears it.',
  })
  region_organization_id?: string | null;

  @EnumField(TOUR_STATUSES, 'TourStatus', { optional: true })
  status?: TourStatus;
}
