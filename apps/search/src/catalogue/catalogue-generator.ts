import { seededRandom } from '@rt/contracts';
import type { CatalogueRecord } from './catalogue-record';
import {
  CLOSINGS,
  COUNTRIES,
  DEPARTURE_TIMES,
  DURATION_WORDS,
  Language,
  OPERATORS,
  THEMES,
} from './generator-data';

/**
 * A deterministic generator of a realistic catalogue: French, German and English offers with
 * accents, destinations with ISO-2 codes and localised country names, categories, past and future
 * departures, ratings, durations, flags and some nulls. Record `i` depends only on the seed, `i`
 * and the anchor date, so the first 2,000 offers of the 100,000-offer benchmark catalogue are the
 * demo catalogue.
 */
export interface GeneratorOptions {
  count: number;
  seed?: number;
  /** "Today" of the generated catalogue (`YYYY-MM-DD`): departures spread from 6 months before to 14 after. */
  anchorDate?: string;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_ANCHOR_DATE = '2026-11-01';
const LANGUAGES: Language[] = ['fr', 'de', 'en'];

/** The seed of record `index`'s own stream: a record depends on nothing else. */
export function mix(seed: number, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ index, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export function offerId(index: number): string {
  return `TRV-${String(index + 1).padStart(6, '0')}`;
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (date: Date) =>
  `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;

export function generateOffer(index: number, options: Omit<GeneratorOptions, 'count'> = {}): CatalogueRecord {
  const random = seededRandom(mix(options.seed ?? DEFAULT_SEED, index));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const chance = (p: number) => random() < p;
  const anchor = Date.parse(`${options.anchorDate ?? DEFAULT_ANCHOR_DATE}T00:00:00Z`);

  const id = offerId(index);
  const language = pick(LANGUAGES);
  const country = pick(COUNTRIES);
  const rawPlace = pick(country.places);
  const coastal = rawPlace.startsWith('~');
  const place = coastal ? rawPlace.slice(1) : rawPlace;
  const candidates = THEMES.filter((theme) => coastal || !theme.seaside);
  const theme = pick(candidates);
  const others = candidates.filter((t) => t !== theme);
  const extraThemes = [...new Set(Array.from({ length: Math.floor(random() * 3) }, () => pick(others)))];

  const name = pick(theme.titles[language]).replace('{place}', place);
  const duration = chance(0.06) ? null : 1 + Math.floor(random() ** 1.6 * 21);
  const description = chance(0.04)
    ? null
    : [
        pick(theme.pitches[language]).replace('{place}', place),
        duration === null ? '' : DURATION_WORDS[language](duration),
        pick(CLOSINGS[language]),
        chance(0.5) ? pick(CLOSINGS[language]) : '',
      ]
        .filter(Boolean)
        .filter((sentence, i, all) => all.indexOf(sentence) === i)
        .join(' ');

  const departureCount = chance(0.05) ? 0 : 1 + Math.floor(random() * 12);
  const departureTime = pick(DEPARTURE_TIMES);
  const departureDates = [
    ...new Set(
      Array.from({ length: departureCount }, () => {
        const day = new Date(anchor + Math.floor(-183 + random() * 610) * 86_400_000);
        return `${isoDate(day)}T${departureTime}:00`;
      }),
    ),
  ].sort();
  const anchorIso = `${isoDate(new Date(anchor))}T00:00:00`;
  const nextDeparture = departureDates.find((date) => date >= anchorIso) ?? null;

  const rating = chance(0.12) ? null : Math.round((2.4 + 2.6 * Math.sqrt(random())) * 100) / 100;
  const seaside = Boolean(theme.seaside) || (coastal && chance(0.6));
  const priceFrom = Math.round((300 + (duration ?? 5) * (90 + random() * 160)) / 10) * 10;

  return {
    id,
    name,
    slug: `${slugify(name)}-${index + 1}`,
    description,
    rating,
    duration,
    nextDeparture,
    departureDates,
    destination: chance(0.02) ? null : { code: country.code, name: country.names[language] },
    categories: [theme, ...extraThemes].map((t) => ({ slug: t.slug, name: t.names[language] })),
    discountClub: chance(0.2),
    seaside,
    isValid: chance(0.86),
    language,
    operator: pick(OPERATORS),
    priceFrom: { amount: priceFrom, currency: 'CHF' },
    photos: Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => ({
      url: `https://images.example.invalid/${id.toLowerCase()}/${i + 1}.jpg`,
      alt: place,
    })),
    occurrences: departureDates.slice(0, 4).map((departure) => ({
      departure,
      seatsLeft: Math.floor(random() * 20),
      price: { amount: priceFrom + Math.floor(random() * 8) * 50, currency: 'CHF' },
    })),
  };
}

export function* generateCatalogue(options: GeneratorOptions): Generator<CatalogueRecord> {
  for (let index = 0; index < options.count; index++) yield generateOffer(index, options);
}

/** `generated:<count>[:<seed>]` → generator options; undefined for any other source. */
export function parseGeneratedSource(source: string): GeneratorOptions | undefined {
  const match = /^generated:(\d+)(?::(\d+))?$/.exec(source);
  if (!match) return undefined;
  return { count: Number(match[1]), seed: match[2] === undefined ? DEFAULT_SEED : Number(match[2]) };
}
