import type { InfoDensity, SearchSchemas, TravelRecord } from '@rt/client';

export type Explanation = SearchSchemas['ExplanationDto'];
export type TermExplanation = SearchSchemas['TermExplanationDto'];
export type AnyTravelRecord = TravelRecord<InfoDensity>;

/** What a card shows of a record, whatever its `infoDensity`: null where that density has no such field. */
export interface OfferView {
  id: string;
  name: string;
  description: string | null;
  destination: string | null;
  categories: string[];
  price: { amount: number; currency: string } | null;
  photo: { url: string; alt: string } | null;
  rating: number | null;
  durationDays: number | null;
  nextDeparture: string | null;
  discountClub: boolean | null;
  bookable: boolean | null;
  seaside: boolean | null;
  scores: { relevance: number; semantic: number; text: number };
  explanation: Explanation | null;
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const booleanOf = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
const objectOf = (value: unknown): Readonly<Record<string, unknown>> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** A category slug as a label: `city-break` → `City break`. */
export const categoryLabel = (slug: string): string =>
  slug.charAt(0).toUpperCase() + slug.slice(1).replace(/-/g, ' ');

/**
 * The fields of the `min`, `card` and `search` densities are the contract's; those of the full
 * record beyond them (`destination` as `{code, name}`, `categories`, `priceFrom`, `photos` …) are
 * the catalogue's own (travel-offer.schema.json), read only when they have the expected shape.
 */
export function toOfferView(record: AnyTravelRecord): OfferView {
  const fields: Readonly<Record<string, unknown>> = record;
  const destination = textOf(fields.destination) ?? textOf(objectOf(fields.destination)?.name);
  const categories = Array.isArray(fields.travel_ranges)
    ? fields.travel_ranges.filter((slug): slug is string => typeof slug === 'string')
    : Array.isArray(fields.categories)
      ? fields.categories.flatMap((category) => textOf(objectOf(category)?.slug) ?? [])
      : [];
  const priceFrom = objectOf(fields.priceFrom);
  const amount = numberOf(priceFrom?.amount);
  const currency = textOf(priceFrom?.currency);
  const firstPhoto = Array.isArray(fields.photos) ? objectOf(fields.photos[0]) : null;
  const photoUrl = textOf(firstPhoto?.url);
  return {
    id: record.id,
    name: textOf(fields.name) ?? record.id,
    description: textOf(fields.description),
    destination,
    categories,
    price: amount !== null && currency !== null ? { amount, currency } : null,
    photo: photoUrl ? { url: photoUrl, alt: textOf(firstPhoto?.alt) ?? '' } : null,
    rating: numberOf(fields.rating),
    durationDays: numberOf(fields.duration),
    nextDeparture: textOf(fields.nextDeparture),
    discountClub: booleanOf(fields.discount_club) ?? booleanOf(fields.discountClub),
    bookable: booleanOf(fields.is_valid) ?? booleanOf(fields.isValid),
    seaside: booleanOf(fields.seaside),
    scores: {
      relevance: record._relevance_score,
      semantic: record.semantic_score,
      text: record.tsvector_score,
    },
    explanation: record._explanation ?? null,
  };
}
