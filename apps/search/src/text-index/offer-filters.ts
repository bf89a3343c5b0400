import type { DateRange } from '../catalogue/date-ranges';

/** The filters of GET /travels, parsed (docs/decisions.md D-49). */
export interface ListingFilters {
  /** ISO-2, upper case. */
  destination?: string;
  categories?: string[];
  dateRanges?: DateRange[];
  hideInvalid?: boolean;
  discountClub?: boolean;
  seaside?: boolean;
}

/**
 * The filterable fields of every offer as compact columns, by ordinal (the offer's position in id
 * order), so that the in-memory text side applies the filters of GET /travels itself
 * (docs/decisions.md D-49; the SQL conditions are sql/filter-conditions.ts's
 * filterConditions, which these mirror).
 */
export interface OfferFilterColumns {
  /** Index into `destinations`, -1 when the offer has none. */
  destination: Int32Array;
  destinations: string[];
  /** The category slugs of offer o are `categoryIds[categoryStart[o] .. categoryStart[o + 1])`. */
  categoryStart: Int32Array;
  categoryIds: Int32Array;
  categories: string[];
  /** Departure days of offer o as half-open ranges of days since 1970-01-01, `[dayLow[i], dayHigh[i])`. */
  dayStart: Int32Array;
  dayLow: Int32Array;
  dayHigh: Int32Array;
  isValid: Uint8Array;
  discountClub: Uint8Array;
  seaside: Uint8Array;
}

/** Whether an offer (by ordinal) passes a request's filters. */
export type OfferFilter = (ordinal: number) => boolean;

const DAY_MS = 86_400_000;

/** A calendar date (`YYYY-MM-DD`) as days since 1970-01-01. */
export function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/**
 * The filter of a request over the columns, or undefined when it has none. Each condition is
 * PostgreSQL's: destination equality, category overlap (`&&`), a departure day within one of the
 * ranges (inclusive dates), `is_valid`, and the two flags' equality.
 */
export function offerFilterOf(filters: ListingFilters, columns: OfferFilterColumns): OfferFilter | undefined {
  const checks: OfferFilter[] = [];
  if (filters.destination !== undefined) {
    const wanted = columns.destinations.indexOf(filters.destination);
    checks.push((o) => wanted >= 0 && columns.destination[o] === wanted);
  }
  if (filters.categories?.length) {
    const wanted = new Set(
      filters.categories.map((slug) => columns.categories.indexOf(slug)).filter((id) => id >= 0),
    );
    checks.push((o) => {
      for (let i = columns.categoryStart[o]; i < columns.categoryStart[o + 1]; i++) {
        if (wanted.has(columns.categoryIds[i])) return true;
      }
      return false;
    });
  }
  if (filters.dateRanges?.length) {
    const ranges = filters.dateRanges.map((range: DateRange) => [
      dayNumber(range.from),
      dayNumber(range.to) + 1,
    ]);
    checks.push((o) => {
      for (let i = columns.dayStart[o]; i < columns.dayStart[o + 1]; i++) {
        for (const [low, high] of ranges) {
          if (columns.dayLow[i] < high && low < columns.dayHigh[i]) return true;
        }
      }
      return false;
    });
  }
  if (filters.hideInvalid) checks.push((o) => columns.isValid[o] === 1);
  if (filters.discountClub !== undefined) {
    const wanted = filters.discountClub ? 1 : 0;
    checks.push((o) => columns.discountClub[o] === wanted);
  }
  if (filters.seaside !== undefined) {
    const wanted = filters.seaside ? 1 : 0;
    checks.push((o) => columns.seaside[o] === wanted);
  }
  if (!checks.length) return undefined;
  if (checks.length === 1) return checks[0];
  return (o) => checks.every((check) => check(o));
}

/** An offer's filterable fields as the loader reads them. */
export interface OfferFilterRow {
  destination: string | null;
  categories: string[];
  /** `departure_days::text`, PostgreSQL's canonical datemultirange: `{[2026-01-01,2026-01-03),…}`. */
  departureDays: string;
  isValid: boolean;
  discountClub: boolean;
  seaside: boolean;
}

/** Builds the columns from the offers' rows, in ordinal order. */
export class OfferFilterColumnsBuilder {
  private readonly destinationIds = new Map<string, number>();
  private readonly categoryIdsBySlug = new Map<string, number>();
  private readonly destination: number[] = [];
  private readonly categoryStart: number[] = [0];
  private readonly categoryIds: number[] = [];
  private readonly dayStart: number[] = [0];
  private readonly dayLow: number[] = [];
  private readonly dayHigh: number[] = [];
  private readonly isValid: number[] = [];
  private readonly discountClub: number[] = [];
  private readonly seaside: number[] = [];

  add(row: OfferFilterRow): void {
    this.destination.push(row.destination === null ? -1 : idOf(this.destinationIds, row.destination));
    for (const slug of row.categories) this.categoryIds.push(idOf(this.categoryIdsBySlug, slug));
    this.categoryStart.push(this.categoryIds.length);
    for (const [low, high] of parseDayRanges(row.departureDays)) {
      this.dayLow.push(low);
      this.dayHigh.push(high);
    }
    this.dayStart.push(this.dayLow.length);
    this.isValid.push(row.isValid ? 1 : 0);
    this.discountClub.push(row.discountClub ? 1 : 0);
    this.seaside.push(row.seaside ? 1 : 0);
  }

  build(): OfferFilterColumns {
    return {
      destination: Int32Array.from(this.destination),
      destinations: [...this.destinationIds.keys()],
      categoryStart: Int32Array.from(this.categoryStart),
      categoryIds: Int32Array.from(this.categoryIds),
      categories: [...this.categoryIdsBySlug.keys()],
      dayStart: Int32Array.from(this.dayStart),
      dayLow: Int32Array.from(this.dayLow),
      dayHigh: Int32Array.from(this.dayHigh),
      isValid: Uint8Array.from(this.isValid),
      discountClub: Uint8Array.from(this.discountClub),
      seaside: Uint8Array.from(this.seaside),
    };
  }
}

function idOf(ids: Map<string, number>, key: string): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size;
    ids.set(key, id);
  }
  return id;
}

/**
 * The ranges of a canonical datemultirange's text (`{[2026-01-01,2026-01-03),[2026-02-01,2026-02-02)}`,
 * `{}`): half-open, as PostgreSQL writes discrete ranges.
 */
export function parseDayRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(/([[(])(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})([\])])/g)) {
    const low = dayNumber(match[2]) + (match[1] === '(' ? 1 : 0);
    const high = dayNumber(match[3]) + (match[4] === ']' ? 1 : 0);
    ranges.push([low, high]);
  }
  return ranges;
}
