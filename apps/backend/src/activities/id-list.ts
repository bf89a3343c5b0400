import type { FieldErrors } from '@rt/errors';
import { isUUID } from 'class-validator';

/**
 * Checks of a list of ids in a body (`tags`, `activity_ids`), keyed by item (`activity_ids.2`),
 * as the envelope names nested fields (docs/decisions.md D-4). Shape (an array of strings, its length) is the
 * DTO's; these run in the service: the format before any lookup, existence after.
 */
export function malformedIdProblems(
  field: string,
  ids: readonly string[],
  options: { refuseDuplicates: boolean },
): FieldErrors {
  const problems: FieldErrors = {};
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    const key = `${field}.${index}`;
    if (!isUUID(id)) {
      problems[key] = [`The ${key} field must be a valid UUID.`];
      return;
    }
    const normalised = id.toLowerCase();
    if (options.refuseDuplicates && seen.has(normalised)) {
      problems[key] = [`The ${key} field has a duplicate value.`];
    }
    seen.add(normalised);
  });
  return problems;
}

/** `field.N` for each id that `existing` (lower-case ids) does not hold. */
export function unknownIdProblems(field: string, ids: readonly string[], existing: Set<string>): FieldErrors {
  const problems: FieldErrors = {};
  ids.forEach((id, index) => {
    if (!existing.has(id.toLowerCase()))
      problems[`${field}.${index}`] = [`The selected ${field}.${index} is invalid.`];
  });
  return problems;
}

/** The ids in order, lower-cased, without repeats. */
export const distinctIds = (ids: readonly string[]): string[] => [
  ...new Set(ids.map((id) => id.toLowerCase())),
];
