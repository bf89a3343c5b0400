// The small catalogue both search services index during the upgrade check: a JSON file
// (CATALOGUE_SOURCE) the smoke flows add offers to before they ask for a reindex.
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { DemoCategorySlug } from '@rt/contracts';

export interface CatalogueOffer {
  id: string;
  name: string;
  slug: string;
  description: string;
  rating: number;
  duration: number;
  nextDeparture: string;
  departureDates: string[];
  destination: { code: string; name: string };
  categories: { slug: string; name: string }[];
  discountClub: boolean;
  seaside: boolean;
  isValid: boolean;
}

/** Offers the smoke flows added: their id starts so, and their name's first word is their marker. */
export const ADDED_PREFIX = 'upgrade-check-added-';

const PLACES = [
  { code: 'CH', name: 'Switzerland', town: 'Zermatt' },
  { code: 'FR', name: 'France', town: 'Lyon' },
  { code: 'IT', name: 'Italy', town: 'Florence' },
  { code: 'NO', name: 'Norway', town: 'Bergen' },
  { code: 'PT', name: 'Portugal', town: 'Lisbon' },
];
const THEMES: { slug: DemoCategorySlug; name: string; words: string }[] = [
  { slug: 'hiking', name: 'Hiking', words: 'mountain trails and alpine huts' },
  { slug: 'gastronomy', name: 'Gastronomy', words: 'cooking classes and wine tasting' },
  { slug: 'city-break', name: 'City break', words: 'museums, old town walks and cafes' },
  { slug: 'beach', name: 'Beach', words: 'sandy beaches and sea kayaking' },
];

function offer(id: string, name: string, index: number): CatalogueOffer {
  const place = PLACES[index % PLACES.length];
  const theme = THEMES[index % THEMES.length];
  const month = String(1 + (index % 12)).padStart(2, '0');
  const departure = `2027-${month}-${String(1 + (index % 27)).padStart(2, '0')}T08:30:00`;
  return {
    id,
    name,
    slug: id,
    description: `${theme.name} in ${place.town}: ${theme.words}, ${3 + (index % 9)} days.`,
    rating: 3 + (index % 20) / 10,
    duration: 3 + (index % 9),
    nextDeparture: departure,
    departureDates: [departure],
    destination: { code: place.code, name: place.name },
    categories: [{ slug: theme.slug, name: theme.name }],
    discountClub: index % 5 === 0,
    seaside: theme.slug === 'beach',
    isValid: index % 7 !== 0,
  };
}

/** The starting catalogue: `count` offers over a few places and themes. */
export function initialCatalogue(count: number): CatalogueOffer[] {
  return Array.from({ length: count }, (_, index) => {
    const place = PLACES[index % PLACES.length];
    const theme = THEMES[index % THEMES.length];
    return offer(`uc-${String(index + 1).padStart(4, '0')}`, `${theme.name} around ${place.town}`, index);
  });
}

export function readCatalogue(file: string): CatalogueOffer[] {
  return JSON.parse(readFileSync(file, 'utf8')) as CatalogueOffer[];
}

/** Written whole and renamed into place, so that a reindex never reads half a file. */
export function writeCatalogue(file: string, offers: CatalogueOffer[]): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, `${JSON.stringify(offers, null, 1)}\n`);
  renameSync(partial, file);
}

/** A made-up word no catalogue text holds (letters only, so that every analyser keeps it whole). */
export function markerWord(): string {
  const letters = 'bcdfghjklmnpqrstvwxz';
  return `quor${[...randomBytes(8)].map((byte) => letters[byte % letters.length]).join('')}`;
}

/** Adds an offer named after a fresh marker word; answers the offer. */
export function addMarkedOffer(file: string, label: string): CatalogueOffer {
  const offers = readCatalogue(file);
  const marker = markerWord();
  const added = offer(`${ADDED_PREFIX}${label}-${marker}`, `${marker} discovery`, offers.length);
  writeCatalogue(file, [...offers, added]);
  return added;
}

/** The marker word of an offer a smoke flow added, or null. */
export function markerOf(offer: CatalogueOffer): string | null {
  return offer.id.startsWith(ADDED_PREFIX) ? offer.name.split(' ')[0] : null;
}
