import { ActivityIdsField, DayNumberField, StepTimeField } from './step-fields';

/**
 * `PUT /tour/{id}/steps/{stepId}` (super-admin): an absent field stays, null clears `day_number`
 * or `time`. `activity_ids` replaces the plans as a whole (`[]` clears them; absent keeps them).
 */
export class UpdateTourStepDto {
  @DayNumberField()
  day_number?: number | null;

  @StepTimeField()
  time?: string | null;

  @ActivityIdsField(
    'Replaces the plans in order (first = plan A): existing activities (else 422 on `activity_ids.N`), ' +
      'each at most once. `[]` clears them; absent keeps them.',
  )
  activity_ids?: string[];
}
