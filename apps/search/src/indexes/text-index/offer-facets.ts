import type { FacetCounts, FacetField } from '../../request/listing-facets';
import type { ListingFilters } from '../../request/listing-filters';
import { passingOffersOf } from './offer-filters';
import type { OfferFilterColumns } from './offer-filters';

/**
 * Counts the facets of a listing (docs/decisions.md D-81) from the in-memory filter columns, by
 * ordinal: `add` each offer of the set `totalRecords` counts once, then `counts`. A counter per
 * value id of each asked field, so an offer costs a few array reads whatever the catalogue holds.
 */
export class OfferFacetCounter {
  private readonly destination: Int32Array | undefined;
  private readonly category: Int32Array | undefined;
  /** The last offer counted per category id: an offer listing a slug twice counts once. */
  private readonly categorySeen: Int32Array | undefined;
  private readonly discountClub: Int32Array | undefined;
  private readonly seaside: Int32Array | undefined;

  constructor(
    private readonly columns: OfferFilterColumns,
    fields: readonly FacetField[],
  ) {
    const asked = new Set(fields);
    if (asked.has('destination')) this.destination = new Int32Array(columns.destinations.length);
    if (asked.has('category')) {
      this.category = new Int32Array(columns.categories.length);
      this.categorySeen = new Int32Array(columns.categories.length).fill(-1);
    }
    if (asked.has('discountclub')) this.discountClub = new Int32Array(2);
    if (asked.has('seaside')) this.seaside = new Int32Array(2);
  }

  /** Counts the offer `o` (each offer once). */
  add(o: number): void {
    const { columns } = this;
    if (this.destination) {
      const id = columns.destination[o];
      if (id >= 0) this.destination[id]++;
    }
    if (this.category) {
      const seen = this.categorySeen!;
      for (let i = columns.categoryStart[o]; i < columns.categoryStart[o + 1]; i++) {
        const id = columns.categoryIds[i];
        if (seen[id] === o) continue;
        seen[id] = o;
        this.category[id]++;
      }
    }
    if (this.discountClub) this.discountClub[columns.discountClub[o]]++;
    if (this.seaside) this.seaside[columns.seaside[o]]++;
  }

  /** The counts (values held by at least one counted offer), with the filter values no offer holds. */
  counts(filters: ListingFilters): FacetCounts {
    const counts: FacetCounts['counts'] = {};
    if (this.destination) counts.destination = byValue(this.columns.destinations, this.destination);
    if (this.category) counts.category = byValue(this.columns.categories, this.category);
    if (this.discountClub) counts.discountclub = byValue(['false', 'true'], this.discountClub);
    if (this.seaside) counts.seaside = byValue(['false', 'true'], this.seaside);
    return { counts, relation: 'eq', unknownFilterValues: unknownFilterValuesOf(filters, this.columns) };
  }
}

/** A filter-only listing's total and facets counted in memory. */
export interface CountedFilterListing {
  /** The offers passing the filters; with a count limit, at most `countLimit` (one past the bound). */
  total: number;
  facets: FacetCounts;
}

/**
 * The total and the facets of a filter-only listing (D-81), counted from the filter columns as
 * PostgreSQL counted them (the ordinals are in id order): every offer passing the filters; with a
 * count limit (SEARCH_TOTAL_EXACT_LIMIT, D-52), the count stops at `countLimit` (one past the
 * bound) and, when it reached it, the facets are those of the first `countLimit − 1` offers,
 * marked `gte`.
 */
export function countFilterListing(
  columns: OfferFilterColumns,
  filters: ListingFilters,
  fields: readonly FacetField[],
  countLimit?: number,
): CountedFilterListing {
  const passing = passingOffersOf(filters, columns);
  const counter = new OfferFacetCounter(columns, fields);
  const offers = columns.destination.length;
  const stopAt = countLimit ?? Number.POSITIVE_INFINITY;
  let total = 0;
  for (let o = 0; o < offers && total < stopAt; o++) {
    if (passing !== undefined && passing[o] === 0) continue;
    total++;
    if (total < stopAt) counter.add(o);
  }
  const facets = counter.counts(filters);
  return { total, facets: total >= stopAt ? { ...facets, relation: 'gte' } : facets };
}

function byValue(values: readonly string[], counts: Int32Array): Map<string, number> {
  const map = new Map<string, number>();
  for (let id = 0; id < counts.length; id++) if (counts[id] > 0) map.set(values[id], counts[id]);
  return map;
}

/** The category and destination filter values that no offer of the columns' catalogue holds. */
export function unknownFilterValuesOf(
  filters: ListingFilters,
  columns: Pick<OfferFilterColumns, 'categories' | 'destinations'>,
): FacetCounts['unknownFilterValues'] {
  const categories = new Set(columns.categories);
  return {
    category: (filters.categories ?? []).filter((slug) => !categories.has(slug)),
    destination:
      filters.destination !== undefined && !columns.destinations.includes(filters.destination)
        ? [filters.destination]
        : [],
  };
}
