import type { FacetCounts, FacetField } from '../../request/listing-facets';
import type { ListingFilters } from '../../request/listing-filters';
import type { OfferFilterColumns } from './offer-filters';

/**
 * Counts the facets of a search (docs/decisions.md D-81) from the in-memory filter columns, by
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
