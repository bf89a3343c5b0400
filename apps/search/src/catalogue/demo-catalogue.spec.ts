import { isDeepStrictEqual } from 'node:util';
import type { CatalogueRecord } from './catalogue-record';
import { CatalogueSourceReader, type SourceItem } from './catalogue-source';
import { contentHash } from './content-hash';
import { DEMO_PLACES, DEMO_THEMES, seasonMonths, type ThemeSlug } from './demo-catalogue-data';
import {
  departureWindow,
  generateDemoCatalogue,
  generateDemoOffer,
  parseDemoSource,
} from './demo-catalogue-generator';
import { COUNTRIES } from './generator-data';
import { RecordValidator } from './record-validator';

const TODAY = '2027-03-17';
const COUNT = 10_000;
const placeOf = (record: CatalogueRecord) => (record.photos as { alt: string }[])[0].alt;
const placesByName = new Map(DEMO_PLACES.map((place) => [place.name, place]));
const themesBySlug = new Map(DEMO_THEMES.map((theme) => [theme.slug, theme]));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word (or words) standing alone in a text: no letter just before, none just after unless a prefix. */
function wordPattern(word: string, prefix: boolean): RegExp {
  return new RegExp(`(?<!\\p{L})${escape(word)}${prefix ? '' : '(?!\\p{L})'}`, 'iu');
}

/** Each theme family with the words its texts alone use (`$`: the whole word only). */
const familyWords = new Map<string, RegExp[]>();
for (const theme of DEMO_THEMES) {
  const patterns = theme.words.map((word) =>
    word.endsWith('$') ? wordPattern(word.slice(0, -1), false) : wordPattern(word, true),
  );
  familyWords.set(theme.family, [...(familyWords.get(theme.family) ?? []), ...patterns]);
}
const placePatterns = DEMO_PLACES.map((place) => ({
  name: place.name,
  pattern: new RegExp(`(?<!\\p{L})${escape(place.name)}(?!\\p{L})`, 'u'),
}));

describe('the demo catalogue (demo:<count>[:<seed>])', () => {
  const catalogue = [...generateDemoCatalogue({ count: COUNT, today: TODAY })];
  const textOf = (record: CatalogueRecord) => `${record.name}\n${record.description ?? ''}`;

  it('writes valid records with unique ids, each with a destination and a place of the data', () => {
    const validator = new RecordValidator();
    const problems: string[] = [];
    for (const record of catalogue) {
      const check = validator.check(record);
      if (!check.ok) problems.push(`${record.id}: ${check.problems.join('; ')}`);
      const place = placesByName.get(placeOf(record));
      const country = COUNTRIES.find((candidate) => candidate.code === place?.country);
      const expected = { code: country?.code, name: country?.names[record.language as 'en'] };
      if (!place || !isDeepStrictEqual(record.destination, expected)) {
        problems.push(`${record.id} at ${placeOf(record)}: ${JSON.stringify(record.destination)}`);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(new Set(catalogue.map((record) => record.id)).size).toBe(COUNT);
  });

  it('draws every category from the themes its place offers, by the sea only where the place is', () => {
    const problems: string[] = [];
    for (const record of catalogue) {
      const place = placesByName.get(placeOf(record))!;
      const slugs = (record.categories ?? []).map((category) => category.slug as ThemeSlug);
      if (slugs.length === 0 || slugs.some((slug) => !place.themes.includes(slug))) {
        problems.push(`${record.id} at ${place.name} (${place.themes.join(' ')}): ${slugs.join(' ')}`);
      }
      if (record.seaside !== place.coastal)
        problems.push(`${record.id} at ${place.name}: seaside ${record.seaside}`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('offers snow sports only where there is snow, beaches only on coasts, safaris only in wildlife parks', () => {
    for (const place of DEMO_PLACES) {
      if (place.themes.includes('beach')) expect([place.name, place.coastal]).toEqual([place.name, true]);
      if (place.themes.includes('ski')) expect([place.name, place.climate]).not.toEqual([place.name, 'T']);
      if (place.themes.includes('safari')) expect(['KE', 'TZ', 'ZA']).toContain(place.country);
      for (const slug of place.themes) expect(themesBySlug.has(slug)).toBe(true);
    }
    const placeOfTheme = (slug: ThemeSlug) =>
      new Set(catalogue.filter((r) => r.categories?.[0].slug === slug).map(placeOf));
    expect([...placeOfTheme('ski')]).not.toContain('Durban');
    expect([...placeOfTheme('ski')]).not.toContain('Java');
    expect([...placeOfTheme('safari')]).not.toContain('St. Moritz');
    expect([...placeOfTheme('ski')]).not.toContain('Ngorongoro');
  });

  it('names and describes an offer with the words of its own themes and its own place only', () => {
    const problems: string[] = [];
    for (const record of catalogue) {
      const text = textOf(record);
      const own = placeOf(record);
      expect(text).toContain(own);
      const families = new Set(
        (record.categories ?? []).map((category) => themesBySlug.get(category.slug as ThemeSlug)!.family),
      );
      for (const [family, patterns] of familyWords) {
        if (families.has(family)) continue;
        for (const pattern of patterns) {
          if (pattern.test(text))
            problems.push(`${record.id} (${[...families]}) says ${String(pattern)}: ${text}`);
        }
      }
      for (const { name, pattern } of placePatterns) {
        if (name !== own && !own.includes(name) && pattern.test(text)) {
          problems.push(`${record.id} at ${own} names ${name}: ${text}`);
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('departs only after the day it runs, in the season of its theme at its place', () => {
    const problems: string[] = [];
    for (const record of catalogue) {
      const departures = record.departureDates ?? [];
      const season = seasonMonths(
        record.categories![0].slug as ThemeSlug,
        placesByName.get(placeOf(record))!,
      );
      const occurrences = (record.occurrences as { departure: string }[]).map((o) => o.departure);
      const wrong =
        departures.length === 0 ||
        record.nextDeparture !== departures[0] ||
        departures.some((departure, i) => i > 0 && departure <= departures[i - 1]) ||
        departures.some(
          (departure) => departure < TODAY || !season.includes(Number(departure.slice(5, 7))),
        ) ||
        !isDeepStrictEqual(occurrences, departures.slice(0, 4));
      if (wrong)
        problems.push(`${record.id} (${season.join(',')}): ${record.nextDeparture} ${departures.join(' ')}`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('is deterministic for a seed, a shorter catalogue is a prefix of a longer one, another seed differs', () => {
    expect([...generateDemoCatalogue({ count: 50, today: TODAY })]).toEqual(catalogue.slice(0, 50));
    expect(generateDemoOffer(9_999, { today: TODAY })).toEqual(catalogue[9_999]);
    expect(generateDemoOffer(0, { seed: 2, today: TODAY })).not.toEqual(catalogue[0]);
  });

  it('reads like a catalogue: three languages, many destinations and themes, ratings, flags', () => {
    expect(new Set(catalogue.map((record) => record.language))).toEqual(new Set(['fr', 'de', 'en']));
    expect(new Set(catalogue.map((record) => record.destination?.code)).size).toBe(COUNTRIES.length);
    const primaries = new Set(catalogue.map((record) => record.categories?.[0].slug));
    expect(primaries).toEqual(new Set(DEMO_THEMES.map((theme) => theme.slug)));
    const share = (predicate: (r: CatalogueRecord) => boolean) =>
      catalogue.filter(predicate).length / catalogue.length;
    expect(share((r) => r.rating === null)).toBeGreaterThan(0.05);
    expect(share((r) => r.discountClub === true)).toBeGreaterThan(0.1);
    expect(share((r) => r.seaside === true)).toBeGreaterThan(0.2);
    expect(share((r) => r.isValid === false)).toBeGreaterThan(0.05);
  });
});

describe('the demo catalogue from one day to the next (D-62)', () => {
  const embedding = { model: 'test', dimension: 8 };
  const generate = (today: string) => [...generateDemoCatalogue({ count: 2000, today })];
  const withoutDates = (record: CatalogueRecord) => ({
    ...record,
    nextDeparture: undefined,
    departureDates: undefined,
    occurrences: (record.occurrences as { departure: string }[]).map((o) => ({ ...o, departure: undefined })),
  });

  it('is the same record for record, content hash for content hash, on every day of a month', () => {
    const first = generate('2027-03-01');
    const last = generate('2027-03-31');
    expect(last).toEqual(first);
    expect(last.map((r) => contentHash(r, embedding))).toEqual(first.map((r) => contentHash(r, embedding)));
  });

  it('changes the dates and nothing else in the next month, still after the day it runs', () => {
    const march = generate('2027-03-31');
    const april = generate('2027-04-01');
    expect(april.map(withoutDates)).toEqual(march.map(withoutDates));
    const moved = april.filter((record, i) => record.nextDeparture !== march[i].nextDeparture);
    expect(moved.length).toBeGreaterThan(0);
    for (const record of april) expect(record.nextDeparture! >= '2027-05-01').toBe(true);
  });

  it('departs in the twelve months after the month it runs in, across a year end', () => {
    expect(departureWindow('2027-12-31').map(({ year, month }) => `${year}-${month}`)).toEqual([
      '2028-1',
      '2028-2',
      '2028-3',
      '2028-4',
      '2028-5',
      '2028-6',
      '2028-7',
      '2028-8',
      '2028-9',
      '2028-10',
      '2028-11',
      '2028-12',
    ]);
    for (const record of generate('2027-12-31')) {
      expect(record.departureDates!.every((d) => d >= '2028-01-01' && d < '2029-01-01')).toBe(true);
    }
    expect(() => departureWindow('2027-3-1')).toThrow('YYYY-MM-DD');
  });
});

describe('the demo catalogue as a source', () => {
  it('reads demo:<count>[:<seed>], dated from the clock', async () => {
    expect(parseDemoSource('demo:2000')).toEqual({ count: 2000, seed: 1 });
    expect(parseDemoSource('demo:10:7')).toEqual({ count: 10, seed: 7 });
    expect(parseDemoSource('generated:10')).toBeUndefined();
    const opened = await new CatalogueSourceReader().open('demo:3', 1000);
    const values: unknown[] = [];
    for await (const item of opened.items as AsyncIterable<SourceItem>) {
      if (item.kind === 'value') values.push(item.value);
    }
    const today = new Date().toISOString().slice(0, 10);
    expect(opened.total).toBe(3);
    expect(values).toEqual([...generateDemoCatalogue({ count: 3, today })]);
  });
});
