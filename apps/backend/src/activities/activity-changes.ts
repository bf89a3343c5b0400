import { sentFields } from '../common/sent-fields';
import type { ActivityFields } from './activities.repository';

/** The fields of `PUT /tour/activity/{id}` that change the row (tags are replaced apart). */
export interface ActivityUpdate {
  provider_id?: string;
  name?: string;
  image_id?: string | null;
  capacity?: number | null;
  unlimited?: boolean;
}

/**
 * Why an update would leave the activity unlimited with a capacity (the message on `capacity`),
 * or null when it may apply: `unlimited: true` alone on an activity with a capacity is refused,
 * as is a capacity sent for an activity that stays unlimited.
 */
export function unlimitedWithCapacityProblem(
  current: { capacity: number | null; unlimited: boolean },
  dto: ActivityUpdate,
): string | null {
  const capacity = dto.capacity !== undefined ? dto.capacity : current.capacity;
  const unlimited = dto.unlimited !== undefined ? dto.unlimited : current.unlimited;
  if (!unlimited || capacity === null) return null;
  return dto.capacity === undefined
    ? 'The capacity field must be sent as null with unlimited: true (the activity has a capacity).'
    : 'The capacity field must be null while the activity is unlimited (send unlimited: false with it).';
}

/** The row's changes: the fields sent; null clears the image or the capacity. */
export function activityChanges(dto: ActivityUpdate): Partial<ActivityFields> {
  return sentFields<ActivityUpdate, ActivityFields>(dto, {
    provider_id: 'providerId',
    name: 'name',
    image_id: 'imageId',
    capacity: 'capacity',
    unlimited: 'unlimited',
  });
}
