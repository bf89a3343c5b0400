// Facets of GET /travels (docs/decisions.md D-81): the fields a request may count, and the counts a
// listing hands back before the HTTP layer caps and orders them.

/** The fields `facets` accepts, as the filters of the same name take them. */
export const FACET_FIELDS = ['category', 'destination', 'discountclub', 'seaside'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

/**
 * The counts of one listing: per asked field, the number of offers per value over exactly the set
 * `totalRecords` counts (values as the filters take them: category slugs, ISO-2 codes upper case,
 * `true`/`false`), every value with at least one offer, in no order.
 */
export interface FacetCounts {
  counts: Partial<Record<FacetField, Map<string, number>>>;
  /**
   * `eq`: counted over the whole set; `gte`: counting stopped where `totalRecords` did
   * (SEARCH_TOTAL_EXACT_LIMIT, D-52): the counts are those of the set's first offers in id order.
   */
  relation: 'eq' | 'gte';
  /** The filter values that no offer of the catalogue holds (a misspelt slug or an absent country). */
  unknownFilterValues: { category: string[]; destination: string[] };
}

/** The values answered per facet field: the largest counts (then value ascending); the rest are counted as left out. */
export const FACET_VALUE_LIMIT = 50;
