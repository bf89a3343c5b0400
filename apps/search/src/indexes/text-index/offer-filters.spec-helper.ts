import { OfferFilterColumnsBuilder } from './offer-filters';
import type { OfferFilterColumns } from './offer-filters';

/**
 * The filter columns of offers by ordinal, one destination each, otherwise alike: no category, no
 * departure, valid, neither flag (the specs' small text indexes).
 */
export function filterColumnsOf(destinations: readonly string[]): OfferFilterColumns {
  const filters = new OfferFilterColumnsBuilder();
  for (const destination of destinations) {
    filters.add({
      destination,
      categories: [],
      departureDays: '{}',
      isValid: true,
      discountClub: false,
      seaside: false,
    });
  }
  return filters.build();
}
