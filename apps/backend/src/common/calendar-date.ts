/**
 * Calendar dates written `YYYY-MM-DD` (no time, no zone), as the API and PostgreSQL `date` columns
 * carry them. Arithmetic goes through UTC midnight, where every day is 24 hours long. Such strings
 * compare (`<`, `<=`) as the dates they name.
 */
const DAY_MS = 86_400_000;

const toUtcMs = (date: string): number =>
  Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));

/** `date` moved by `days` (negative: earlier). */
export function addDays(date: string, days: number): string {
  return new Date(toUtcMs(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** How many days from `from` to `to` (0 for the same date, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}
