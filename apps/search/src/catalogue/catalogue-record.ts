/** The properties of a catalogue record the service reads (travel-offer.schema.json); the rest is kept as is. */
export interface CatalogueRecord {
  id: string;
  name: string;
  slug: string;
  description?: string | null;
  rating?: number | null;
  duration?: number | null;
  nextDeparture?: string | null;
  departureDates?: string[];
  destination?: { code: string; name: string } | null;
  categories?: { slug: string; name?: string }[];
  discountClub?: boolean;
  seaside?: boolean;
  isValid?: boolean;
  [other: string]: unknown;
}

/** A record as the index stores it: the typed columns beside the full record. */
export interface IndexedOffer {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  destinationCode: string | null;
  destinationName: string | null;
  categories: string[];
  rating: number | null;
  duration: number | null;
  /** `YYYY-MM-DDTHH:mm:ss`, local. */
  nextDeparture: string | null;
  /** `YYYY-MM-DDTHH:mm:ss`, local, sorted, without duplicates. */
  departureDates: string[];
  discountClub: boolean;
  seaside: boolean;
  isValid: boolean;
  record: CatalogueRecord;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/;

/** True for a real calendar date-time written `YYYY-MM-DDTHH:mm[:ss[.ffffff]]` (no offset). */
export function isLocalDateTime(value: string): boolean {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  return isCalendarDate(year, month, day) && hour < 24 && minute < 60 && second < 60;
}

export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `2027-03-14T08:30` → `2027-03-14T08:30:00` (fractions dropped): the form the listings answer. */
export function normaliseLocalDateTime(value: string): string {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) throw new Error(`Not a local date-time: ${value}`);
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6] ?? '00'}`;
}

/** The typed columns of a validated record. */
export function toIndexedOffer(record: CatalogueRecord): IndexedOffer {
  const departureDates = [...new Set((record.departureDates ?? []).map(normaliseLocalDateTime))].sort();
  return {
    id: record.id,
    name: record.name,
    slug: record.slug,
    description: record.description ?? null,
    destinationCode: record.destination?.code ?? null,
    destinationName: record.destination?.name ?? null,
    categories: [...new Set((record.categories ?? []).map((category) => category.slug))],
    rating: record.rating ?? null,
    duration: record.duration ?? null,
    nextDeparture: record.nextDeparture ? normaliseLocalDateTime(record.nextDeparture) : null,
    departureDates,
    discountClub: record.discountClub ?? false,
    seaside: record.seaside ?? false,
    isValid: record.isValid ?? false,
    record,
  };
}

/** The text the embedding provider reads: what the offer is about, most telling first. */
export function embeddingTextOf(offer: IndexedOffer): string {
  const categoryNames = (offer.record.categories ?? []).map(
    (category) => category.name ?? category.slug.replace(/-/g, ' '),
  );
  return [offer.name, offer.destinationName ?? '', categoryNames.join(', '), offer.description ?? '']
    .filter((part) => part.length > 0)
    .join('\n');
}
