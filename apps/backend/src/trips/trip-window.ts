import { addDays } from '../common/calendar-date';

/**
 * The last day of a trip departing on `startsOn` (`YYYY-MM-DD`): the date of its last dated step,
 * starts_on + (largest day_number − 1); the departure day itself when the tour has no dated step.
 */
export function tripEndsOn(startsOn: string, largestDayNumber: number | null): string {
  return largestDayNumber === null ? startsOn : addDays(startsOn, Math.max(largestDayNumber, 1) - 1);
}
