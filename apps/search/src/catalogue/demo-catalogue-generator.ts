import type { CatalogueRecord } from './catalogue-record';
import { seededRandom } from '@rt/contracts';
import { DEFAULT_SEED, mix, offerId, slugify } from './catalogue-generator';
import {
  DEMO_CLOSINGS,
  DEMO_DURATION_WORDS,
  DEMO_PLACES,
  DEMO_THEMES,
  type DemoTheme,
  seasonMonths,
  type ThemeSlug,
} from './demo-catalogue-data';
import { COUNTRIES, DEPARTURE_TIMES, type Language, OPERATORS } from './generator-data';

/**
 * The demo catalogue a traveller believes (`demo:<count>[:<seed>]`, D-61): each offer's theme is
 * one its place offers (demo-catalogue-data.ts), its name and description speak of that theme and
 * that place only, its destination is always set, and it departs in the twelve calendar months
 * after the month of the day it is generated, in its theme's season there. Record `i` depends only
 * on the seed, `i` and that month (D-62): a reindex within the month rewrites nothing, the first
 * one of the next month changes the dates and nothing else.
 */
export interface DemoGeneratorOptions {
  count: number;
  seed?: number;
  /** The day the demo runs (`YYYY-MM-DD`, UTC); the clock's day by default. Only its month counts. */
  today?: string;
}

const LANGUAGES: Language[] = ['fr', 'de', 'en'];
/** A departure per half month at most: days 1–14 and 15–28 (every month has them). */
const HALVES = 2;
const DAYS_PER_HALF = 14;
const MAX_DEPARTURES = 8;
const THEMES_BY_SLUG = new Map<ThemeSlug, DemoTheme>(DEMO_THEMES.map((theme) => [theme.slug, theme]));
const COUNTRIES_BY_CODE = new Map(COUNTRIES.map((country) => [country.code, country]));

export interface CalendarMonth {
  year: number;
  /** 1–12. */
  month: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function utcToday(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The months departures fall in: the twelve after the month of `today`. Every day of one month
 * gives the same window, so the catalogue (and every record's content hash) changes once a month;
 * the first departure is at the earliest on the 1st of the next month, so never before `today`.
 */
export function departureWindow(today: string): CalendarMonth[] {
  const match = /^(\d{4})-(\d{2})-\d{2}$/.exec(today);
  if (!match) throw new Error(`today must be written YYYY-MM-DD, not "${today}"`);
  const start = Number(match[1]) * 12 + Number(match[2]) - 1;
  return Array.from({ length: 12 }, (_, k) => ({
    year: Math.floor((start + 1 + k) / 12),
    month: ((start + 1 + k) % 12) + 1,
  }));
}

function themeOf(slug: ThemeSlug): DemoTheme {
  const theme = THEMES_BY_SLUG.get(slug);
  if (!theme) throw new Error(`no theme ${slug} in DEMO_THEMES`);
  return theme;
}

export function generateDemoOffer(
  index: number,
  options: Omit<DemoGeneratorOptions, 'count'> = {},
): CatalogueRecord {
  const random = seededRandom(mix(options.seed ?? DEFAULT_SEED, index));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const chance = (p: number) => random() < p;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

  const id = offerId(index);
  const language = pick(LANGUAGES);
  const place = pick(DEMO_PLACES);
  const country = COUNTRIES_BY_CODE.get(place.country);
  if (!country) throw new Error(`no country ${place.country} in COUNTRIES`);
  const primary = themeOf(pick(place.themes));
  const others = place.themes.filter((slug) => slug !== primary.slug);
  const extraCount = others.length === 0 ? 0 : Math.floor(random() * 3);
  const extras = [...new Set(Array.from({ length: extraCount }, () => pick(others)))].map(themeOf);

  const fill = (template: string) => template.replace('{place}', place.name);
  const name = fill(pick(primary.titles[language]));
  const duration = between(...primary.duration);
  const description = [
    fill(pick(primary.pitches[language])),
    DEMO_DURATION_WORDS[language](duration),
    pick(DEMO_CLOSINGS[language]),
    chance(0.4) ? pick(DEMO_CLOSINGS[language]) : '',
  ]
    .filter((sentence, i, all) => sentence !== '' && all.indexOf(sentence) === i)
    .join(' ');

  // Which half months of the season (counted from the window's start) and which day in each: the
  // draws do not depend on the window, so another month moves the dates and nothing else.
  const season = seasonMonths(primary.slug, place);
  const slotCount = season.length * HALVES;
  const departureCount = between(1, Math.min(MAX_DEPARTURES, slotCount));
  const slots = Array.from({ length: slotCount }, (_, slot) => slot);
  for (let k = 0; k < departureCount; k++) {
    const j = k + Math.floor(random() * (slotCount - k));
    [slots[k], slots[j]] = [slots[j], slots[k]];
  }
  const chosen = slots.slice(0, departureCount).sort((a, b) => a - b);
  const days = chosen.map(
    (slot) => (slot % HALVES) * DAYS_PER_HALF + 1 + Math.floor(random() * DAYS_PER_HALF),
  );
  const departureTime = pick(DEPARTURE_TIMES);
  const seasonMonthsAhead = departureWindow(options.today ?? utcToday()).filter((month) =>
    season.includes(month.month),
  );
  const departureDates = chosen.map((slot, k) => {
    const { year, month } = seasonMonthsAhead[Math.floor(slot / HALVES)];
    return `${year}-${pad(month)}-${pad(days[k])}T${departureTime}:00`;
  });

  const rating = chance(0.1) ? null : Math.round((3.2 + 1.8 * Math.sqrt(random())) * 100) / 100;
  const priceFrom = Math.round((300 + duration * (90 + random() * 160)) / 10) * 10;
  const operator = pick(OPERATORS);
  const discountClub = chance(0.2);
  const isValid = chance(0.9);
  const photoCount = between(1, 3);
  const seats = Array.from({ length: 4 }, () => ({
    seatsLeft: Math.floor(random() * 20),
    price: { amount: priceFrom + Math.floor(random() * 8) * 50, currency: 'CHF' },
  }));

  return {
    id,
    name,
    slug: `${slugify(name)}-${index + 1}`,
    description,
    rating,
    duration,
    nextDeparture: departureDates[0],
    departureDates,
    destination: { code: country.code, name: country.names[language] },
    categories: [primary, ...extras].map((theme) => ({ slug: theme.slug, name: theme.names[language] })),
    discountClub,
    seaside: place.coastal,
    isValid,
    language,
    operator,
    priceFrom: { amount: priceFrom, currency: 'CHF' },
    photos: Array.from({ length: photoCount }, (_, i) => ({
      url: `https://images.example.invalid/${id.toLowerCase()}/${i + 1}.jpg`,
      alt: place.name,
    })),
    occurrences: departureDates.slice(0, 4).map((departure, k) => ({ departure, ...seats[k] })),
  };
}

export function* generateDemoCatalogue(options: DemoGeneratorOptions): Generator<CatalogueRecord> {
  const today = options.today ?? utcToday();
  for (let index = 0; index < options.count; index++) yield generateDemoOffer(index, { ...options, today });
}

/** `demo:<count>[:<seed>]` → generator options (the day left to the clock); undefined for any other source. */
export function parseDemoSource(source: string): DemoGeneratorOptions | undefined {
  const match = /^demo:(\d+)(?::(\d+))?$/.exec(source);
  if (!match) return undefined;
  return { count: Number(match[1]), seed: match[2] === undefined ? DEFAULT_SEED : Number(match[2]) };
}
