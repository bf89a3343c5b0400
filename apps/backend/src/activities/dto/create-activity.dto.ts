import { BooleanField, TextField, UuidField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';
import { CapacityField } from './capacity-fields';
import { IdListField } from './id-list-field';

export const MAX_TAGS = 100;

/** `POST /tour/activity` (also spelled `POST /tour/activities`; super-admin). */
export class CreateActivityDto {
  @UuidField({ description: 'An existing provider (else 422).' })
  provider_id!: string;

  @SingleLine()
  @TextField({ max: 255, example: 'Matterhorn glacier hike' })
  name!: string;

  @UuidField({
    optional: true,
    nullable: true,
    description: 'An uploaded image (else 422); absent or null: none.',
  })
  image_id?: string | null;

  @IdListField({
    maxItems: MAX_TAGS,
    description: 'Tag ids (a set: repeats count once); unknown ids → 422 on `tags.N`. Absent: none.',
  })
  tags?: string[];

  @CapacityField()
  capacity?: number | null;

  @BooleanField({
    optional: true,
    description: 'True: the activity never saturates (then `capacity` must be null). Absent: false.',
  })
  unlimited?: boolean;
}
