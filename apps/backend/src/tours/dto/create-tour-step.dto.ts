import { ActivityIdsField, DayNumberField, StepTimeField } from './step-fields';

/**
 * `POST /tour/{id}/steps` (super-admin): a step at the end of the tour. A step has no name of its
 * own (its name is plan A's): a `name` sent is ignored.
 */
export class CreateTourStepDto {
  @DayNumberField()
  day_number?: number | null;

  @StepTimeField()
  time?: string | null;

  @ActivityIdsField(
    'The plans in order (the first is plan A, priority 1): existing activities (else 422 on ' +
      '`activity_ids.N`), each at most once. Absent: no plans.',
  )
  activity_ids?: string[];
}
