import { BooleanField, TextField, UuidField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { CapacityField } from './capacity-fields';
import { MAX_TAGS } from './create-activity.dto';
import { IdListField } from './id-list-field';

/**
 * `PUT /tour/activity/{id}` (super-admin): any of the fields; an absent one stays. `image_id:
 * null` detaches the image; `tags` replaces the whole set (`[]` clears it). The result must not
 * be unlimited with a capacity: switching a numeric activity to unlimited takes `capacity: null,
 * unlimited: true` together (`unlimited: true` alone → 422, nothing changed).
 */
export class UpdateActivityDto {
  @UuidField({ optional: true, description: 'An existing provider (else 422).' })
  provider_id?: string;

  @SingleLine()
  @TextField({ max: 255, optional: true })
  name?: string;

  @UuidField({
    optional: true,
    nullable: true,
    description: 'An uploaded image (else 422); null detaches the image.',
  })
  image_id?: string | null;

  @IdListField({
    maxItems: MAX_TAGS,
    description: 'Replaces the whole set (`[]` clears it); unknown ids → 422 on `tags.N`.',
  })
  tags?: string[];

  @CapacityField()
  capacity?: number | null;

  @BooleanField({ optional: true, description: 'Switching to true takes `capacity: null` in the same body.' })
  unlimited?: boolean;
}
