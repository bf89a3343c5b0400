/**
 * Calendar dates written `YYYY-MM-DD` (no time, no zone), as the API and PostgreSQL `date` columns
 * carry them. Arithmetic goes through UTC midnight, where every day is 24 hours long. Such strings
 * compare (`<`, `<=`) as the dates they name.
 */
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD`, or ISO 8601's expanded `±YYYYYY-MM-DD` beyond year 9999 (a derived date may be). */
const DATE = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})$/;

function toUtcMs(date: string): number {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`not a calendar date: ${date}`);
  // setUTCFullYear, not Date.UTC: years 0 to 99 stay themselves.
  return new Date(0).setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/**
 * `date` moved by `days` (negative: earlier). Past year 9999 the result is written `+YYYYYY-MM-DD`
 * (e.g. the capacity's evaluation window after a departure on 9999-12-31), which the functions
 * here read back; such a date no longer compares as a string.
 */
export function addDays(date: string, days: number): string {
  const iso = new Date(toUtcMs(date) + days * DAY_MS).toISOString();
  return iso.slice(0, iso.indexOf('T'));
}

/** How many days from `from` to `to` (0 for the same date, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}
