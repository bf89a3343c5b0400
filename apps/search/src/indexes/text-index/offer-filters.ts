import type { DateRange } from '../../catalogue/date-ranges';
import type { ListingFilters } from '../../request/listing-filters';

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
  /**
   * Departure days of offer o as half-open ranges of days since 1970-01-01, `[dayLow[i], dayHigh[i])`
   * for i in `dayStart[o] .. dayStart[o + 1]`, ascending by `dayLow`.
   */
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
 * ranges (inclusive dates), `is_valid`, and the two flags' equality. The text side tests each
 * posting with it, so the conditions are tested cheapest first (a byte, an id, a category list,
 * the departure days), each reads its own column captured once, and nothing is allocated per call.
 */
export function offerFilterOf(filters: ListingFilters, columns: OfferFilterColumns): OfferFilter | undefined {
  const checks: OfferFilter[] = [];
  if (filters.hideInvalid) {
    const { isValid } = columns;
    checks.push((o) => isValid[o] === 1);
  }
  if (filters.discountClub !== undefined) {
    const { discountClub } = columns;
    const wanted = filters.discountClub ? 1 : 0;
    checks.push((o) => discountClub[o] === wanted);
  }
  if (filters.seaside !== undefined) {
    const { seaside } = columns;
    const wanted = filters.seaside ? 1 : 0;
    checks.push((o) => seaside[o] === wanted);
  }
  if (filters.destination !== undefined) {
    const { destination } = columns;
    const wanted = columns.destinations.indexOf(filters.destination);
    if (wanted < 0) return () => false;
    checks.push((o) => destination[o] === wanted);
  }
  if (filters.categories?.length) {
    const wanted = wantedCategoriesOf(filters.categories, columns);
    checks.push((o) => inWantedCategory(columns, wanted, o));
  }
  if (filters.dateRanges?.length) {
    const wanted = wantedDaysOf(filters.dateRanges);
    checks.push((o) => departsWithin(columns, wanted, o));
  }
  if (!checks.length) return undefined;
  if (checks.length === 1) return checks[0];
  return (o) => {
    for (let i = 0; i < checks.length; i++) if (!checks[i](o)) return false;
    return true;
  };
}

/**
 * The offers of `columns` passing `filters`, a byte each (1: passes), or undefined when there are no
 * filters: offerFilterOf's conditions (the spec holds the two equal), each tested in its own loop
 * over its column, an offer already out skipped. A hybrid search with vectors in memory lists the
 * passing offers once for both sides; at 1,000,000 offers that took 7–81 ms with the filter
 * called per offer, 5–37 ms this way (docs/benchmarks.md).
 */
export function passingOffersOf(
  filters: ListingFilters,
  columns: OfferFilterColumns,
): Uint8Array | undefined {
  const { hideInvalid, discountClub, seaside, destination, categories, dateRanges } = filters;
  if (
    !hideInvalid &&
    discountClub === undefined &&
    seaside === undefined &&
    destination === undefined &&
    !categories?.length &&
    !dateRanges?.length
  ) {
    return undefined;
  }
  const offers = columns.destination.length;
  const passing = new Uint8Array(offers);
  if (destination !== undefined && !columns.destinations.includes(destination)) return passing;
  passing.fill(1);
  const keepFlag = (column: Uint8Array, wanted: boolean) => {
    const value = wanted ? 1 : 0;
    for (let o = 0; o < offers; o++) passing[o] &= column[o] === value ? 1 : 0;
  };
  if (hideInvalid) keepFlag(columns.isValid, true);
  if (discountClub !== undefined) keepFlag(columns.discountClub, discountClub);
  if (seaside !== undefined) keepFlag(columns.seaside, seaside);
  if (destination !== undefined) {
    const wanted = columns.destinations.indexOf(destination);
    const column = columns.destination;
    for (let o = 0; o < offers; o++) passing[o] &= column[o] === wanted ? 1 : 0;
  }
  if (categories?.length) {
    const wanted = wantedCategoriesOf(categories, columns);
    for (let o = 0; o < offers; o++) {
      if (passing[o] === 1 && !inWantedCategory(columns, wanted, o)) passing[o] = 0;
    }
  }
  if (dateRanges?.length) {
    const wanted = wantedDaysOf(dateRanges);
    for (let o = 0; o < offers; o++) {
      if (passing[o] === 1 && !departsWithin(columns, wanted, o)) passing[o] = 0;
    }
  }
  return passing;
}

/** The categories of `slugs` as a byte per category id of the columns (a slug they lack: none). */
function wantedCategoriesOf(slugs: string[], columns: OfferFilterColumns): Uint8Array {
  const wanted = new Uint8Array(columns.categories.length);
  for (const slug of slugs) {
    const id = columns.categories.indexOf(slug);
    if (id >= 0) wanted[id] = 1;
  }
  return wanted;
}

/** Whether offer `o` is in one of the `wanted` categories (PostgreSQL's `&&`). */
function inWantedCategory(columns: OfferFilterColumns, wanted: Uint8Array, o: number): boolean {
  const { categoryStart, categoryIds } = columns;
  for (let i = categoryStart[o]; i < categoryStart[o + 1]; i++) {
    if (wanted[categoryIds[i]] === 1) return true;
  }
  return false;
}

/** The wanted date ranges as half-open day ranges `[lows[r], highs[r])`, and the latest end. */
interface WantedDays {
  lows: Float64Array;
  highs: Float64Array;
  latestHigh: number;
}

function wantedDaysOf(ranges: DateRange[]): WantedDays {
  const lows = Float64Array.from(ranges, (range) => dayNumber(range.from));
  const highs = Float64Array.from(ranges, (range) => dayNumber(range.to) + 1);
  return { lows, highs, latestHigh: Math.max(...highs) };
}

/**
 * Whether offer `o` departs on a day of one of the `wanted` ranges; its ranges are ascending, so
 * the test stops at the first one starting after every wanted range ends.
 */
function departsWithin(columns: OfferFilterColumns, wanted: WantedDays, o: number): boolean {
  const { dayStart, dayLow, dayHigh } = columns;
  const { lows, highs, latestHigh } = wanted;
  for (let i = dayStart[o]; i < dayStart[o + 1]; i++) {
    if (dayLow[i] >= latestHigh) return false;
    for (let r = 0; r < lows.length; r++) {
      if (dayLow[i] < highs[r] && lows[r] < dayHigh[i]) return true;
    }
  }
  return false;
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
    // ascending (PostgreSQL's canonical multirange already is): the date filter stops at the first
    // range starting after every wanted range ends
    const ranges = parseDayRanges(row.departureDays).sort((a, b) => a[0] - b[0]);
    for (const [low, high] of ranges) {
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
