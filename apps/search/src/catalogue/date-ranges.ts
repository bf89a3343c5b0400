import { isCalendarDate } from './catalogue-record';

/** An inclusive range of local dates, `YYYY-MM-DD`. */
export interface DateRange {
  from: string;
  to: string;
}

export const MAX_DATE_RANGES = 50;
const RANGE = /^(\d{4})-(\d{2})-(\d{2})_(\d{4})-(\d{2})-(\d{2})$/;

export type DateRangesResult = { ok: true; ranges: DateRange[] } | { ok: false; message: string };

/**
 * Parses the `dates` parameter: `YYYY-MM-DD_YYYY-MM-DD` ranges separated by commas, inclusive,
 * combined with OR. A malformed range, a date that is not on the calendar (2027-02-30) or a range
 * that ends before it starts is an error (422, docs/decisions.md D-48).
 */
export function parseDateRanges(value: string): DateRangesResult {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length > MAX_DATE_RANGES) {
    return { ok: false, message: `dates accepts at most ${MAX_DATE_RANGES} ranges.` };
  }
  const ranges: DateRange[] = [];
  for (const part of parts) {
    const match = RANGE.exec(part);
    if (!match) {
      return {
        ok: false,
        message: `dates must be ranges written YYYY-MM-DD_YYYY-MM-DD separated by commas; "${part}" is not.`,
      };
    }
    const [fromYear, fromMonth, fromDay, toYear, toMonth, toDay] = match.slice(1).map(Number);
    if (!isCalendarDate(fromYear, fromMonth, fromDay) || !isCalendarDate(toYear, toMonth, toDay)) {
      return { ok: false, message: `dates contains a date that does not exist: "${part}".` };
    }
    const from = part.slice(0, 10);
    const to = part.slice(11);
    if (to < from)
      return { ok: false, message: `dates contains a range that ends before it starts: "${part}".` };
    ranges.push({ from, to });
  }
  return { ok: true, ranges };
}

/** The ranges as a PostgreSQL `datemultirange` literal (inclusive bounds; PostgreSQL merges overlaps). */
export function toDateMultirange(ranges: DateRange[]): string {
  return `{${ranges.map((range) => `[${range.from},${range.to}]`).join(',')}}`;
}

/** Departure date-times (`YYYY-MM-DDTHH:mm:ss`) as a multirange of their days. */
export function departureDaysMultirange(departures: string[]): string {
  const days = [...new Set(departures.map((departure) => departure.slice(0, 10)))];
  return `{${days.map((day) => `[${day},${day}]`).join(',')}}`;
}
