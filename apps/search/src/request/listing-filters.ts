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
