import { sentFields } from '../common/sent-fields';
import { toStoredTime } from './step-time';
import type { StepFields } from './tour-steps.repository';

/** A step's row changes: the fields sent; null clears the day or the time (`09:30` → `09:30:00`). */
export function stepChanges(dto: { day_number?: number | null; time?: string | null }): Partial<StepFields> {
  const changes = sentFields<typeof dto, StepFields>(dto, { day_number: 'dayNumber' });
  if (dto.time !== undefined) changes.time = dto.time === null ? null : toStoredTime(dto.time);
  return changes;
}

/**
 * The new order of a tour's steps, lower-cased, when `stepIds` lists each of `current` exactly
 * once (any case); null otherwise (a step left out, repeated or foreign).
 */
export function newStepOrder(stepIds: string[], current: string[]): string[] | null {
  const wanted = stepIds.map((id) => id.toLowerCase());
  const isPermutation =
    wanted.length === current.length &&
    new Set(wanted).size === wanted.length &&
    current.every((id) => wanted.includes(id.toLowerCase()));
  return isPermutation ? wanted : null;
}
