import { AppError, FieldErrors } from '@rt/errors';
import { zurichToday } from '@rt/platform';
import { daysBetween } from '../common/calendar-date';
import { MAX_RANGE_DAYS } from './capacity-inputs';

/** The departure dates a capacity query asks for: one date, or a range (`single: false`). */
export interface CapacityRange {
  from: string;
  to: string;
  single: boolean;
}

/**
 * The dates of `GET /organizations/{id}/capacity`: `date`, else `from` + `to` (both ends
 * inclusive, at most MAX_RANGE_DAYS days), else today in Europe/Zurich at `now`. The combinations
 * the pipe cannot check → 422.
 */
export function capacityRangeOf(
  query: { date?: string; from?: string; to?: string },
  now: Date,
): CapacityRange {
  const problems: FieldErrors = {};
  if (query.date !== undefined) {
    if (query.from !== undefined || query.to !== undefined) {
      problems.date = ['The date field cannot be combined with from and to.'];
      throw AppError.validation(problems);
    }
    return { from: query.date, to: query.date, single: true };
  }
  if (query.from === undefined && query.to === undefined) {
    const today = zurichToday(now);
    return { from: today, to: today, single: true };
  }
  if (query.from === undefined) problems.from = ['The from field is required when to is present.'];
  if (query.to === undefined) problems.to = ['The to field is required when from is present.'];
  if (query.from !== undefined && query.to !== undefined) {
    const span = daysBetween(query.from, query.to) + 1;
    if (span < 1) problems.to = ['The to field must be a date on or after from.'];
    else if (span > MAX_RANGE_DAYS) {
      problems.to = [`The range from from to to must not span more than ${MAX_RANGE_DAYS} days.`];
    }
  }
  AppError.throwIfInvalid(problems);
  return { from: query.from!, to: query.to!, single: false };
}
