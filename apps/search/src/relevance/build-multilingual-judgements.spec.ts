import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Annotations,
  covers,
  foldedWords,
  gradeOf,
  judge,
  JUDGED_QUERIES,
  languageProblems,
  OfferAnnotation,
  PlaceEntry,
  placeClosure,
  QuerySpec,
  TRAVELLER_QUERIES,
} from './build-multilingual-judgements';
import { loadJudgedQueries, QUERY_TYPES, readJudgedSet, SEARCH_LANGUAGES } from './relevance';

describe('the multilingual judged set', () => {
  const places: Record<string, PlaceEntry> = {
    switzerland: { name: 'Switzerland', country: 'CH', in: [] },
    valais: { name: 'Valais', country: 'CH', in: ['switzerland'] },
    zermatt: { name: 'Zermatt', country: 'CH', in: ['valais'] },
    lake_geneva: { name: 'Lake Geneva', country: 'CH', in: ['switzerland'] },
    montreux: { name: 'Montreux', country: 'CH', in: ['lake_geneva'] },
  };
  const offer = (offerPlaces: string[], concepts: string[]): OfferAnnotation => ({
    name: 'x',
    language: 'de',
    country: 'CH',
    places: offerPlaces,
    concepts,
  });

  it('a place holds everything inside it, through every parent', () => {
    expect([...placeClosure(['zermatt', 'montreux'], places)].sort()).toEqual([
      'lake_geneva',
      'montreux',
      'switzerland',
      'valais',
      'zermatt',
    ]);
    expect(() => placeClosure(['atlantis'], places)).toThrow('unknown place atlantis');
  });

  it('a broader concept is covered by its narrower ones, never the reverse; a|b by either', () => {
    expect(covers(['snowshoeing'], 'winter_sports')).toBe(true);
    expect(covers(['winter_sports'], 'snowshoeing')).toBe(false);
    expect(covers(['thermal_baths'], 'wellness')).toBe(true);
    expect(covers(['culture'], 'city_break|culture')).toBe(true);
    expect(covers(['hiking'], 'city_break|culture')).toBe(false);
  });

  it('grades 2 for every place and concept, 1 for the place with part of the concepts, 0 elsewhere', () => {
    const ski: QuerySpec = {
      type: 'cross_language',
      query: 'ski wallis',
      language: undefined,
      places: ['valais'],
      concepts: ['skiing'],
    };
    expect(gradeOf(ski, offer(['zermatt'], ['skiing', 'mountains']), places)).toBe(2);
    expect(gradeOf(ski, offer(['zermatt'], ['wellness']), places)).toBe(1);
    expect(gradeOf(ski, offer(['montreux'], ['skiing']), places)).toBe(0);
    const lakeHike: QuerySpec = {
      type: 'homonym',
      query: 'wanderung am see',
      language: 'de',
      concepts: ['hiking', 'lake'],
    };
    expect(gradeOf(lakeHike, offer(['montreux'], ['hiking', 'lake']), places)).toBe(2);
    expect(gradeOf(lakeHike, offer(['montreux'], ['lake', 'culture']), places)).toBe(1);
    expect(gradeOf(lakeHike, offer(['zermatt'], ['skiing']), places)).toBe(0);
    const place: QuerySpec = { type: 'destination', query: 'wallis', language: 'de', places: ['valais'] };
    expect(gradeOf(place, offer(['zermatt'], []), places)).toBe(2);
    const nonsense: QuerySpec = { type: 'nonsense', query: 'xyzzyqqq', language: undefined };
    expect(gradeOf(nonsense, offer(['zermatt'], []), places)).toBe(0);
  });

  it('folds words as a search is folded', () => {
    expect(foldedWords('Loèche-les-Bains, Straße')).toEqual(['loeche', 'les', 'bains', 'strasse']);
  });

  it('judged-multilingual.json is what build-multilingual-judgements.ts writes from the committed files', () => {
    const dir = __dirname;
    const catalogue = readFileSync(join(dir, 'multilingual-catalogue.ndjson'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { id: string; name: string });
    const annotations = JSON.parse(
      readFileSync(join(dir, 'multilingual-annotations.json'), 'utf8'),
    ) as Annotations;
    const set = readJudgedSet(join(dir, 'judged-multilingual.json'));
    expect(set.catalogue).toBe(join(dir, 'multilingual-catalogue.ndjson'));
    expect(set.queries).toEqual(judge(catalogue, annotations));
    for (const spec of JUDGED_QUERIES) expect(QUERY_TYPES).toContain(spec.type);
  });

  it('refuses annotations that disagree with the catalogue and queries without a relevant offer', () => {
    const annotations: Annotations = {
      places,
      offers: { a: offer(['zermatt'], ['skiing']), c: offer(['zermatt'], []) },
    };
    expect(() =>
      judge(
        [
          { id: 'b', name: 'x' },
          { id: 'c', name: 'x', language: 'fr' },
        ],
        annotations,
        [{ type: 'destination', query: 'genf', language: 'de', places: ['lake_geneva'] }],
      ),
    ).toThrow(
      /b: no annotation[\s\S]*c: language "fr", annotated as "de"[\s\S]*a: annotated but not in the catalogue[\s\S]*genf: no offer graded 2/,
    );
  });
});

describe('the language of the judged searches', () => {
  it('every query writes its language, one of the four or undefined for none; nonsense has none', () => {
    expect(languageProblems({ type: 'homonym', query: 'spa', language: undefined })).toEqual([]);
    expect(languageProblems({ type: 'destination', query: 'genf', language: 'de' })).toEqual([]);
    const unwritten = { type: 'destination', query: 'genf' } as QuerySpec;
    expect(languageProblems(unwritten)).toEqual(['genf: no language (undefined for none)']);
    const spanish = { type: 'destination', query: 'ginebra', language: 'es' } as unknown as QuerySpec;
    expect(languageProblems(spanish)).toEqual(['ginebra: language "es" is not one of fr, de, en, it']);
    expect(languageProblems({ type: 'nonsense', query: 'xyzzyqqq', language: 'fr' })).toEqual([
      'xyzzyqqq: a nonsense query has no language',
    ]);
    for (const spec of JUDGED_QUERIES) expect(languageProblems(spec)).toEqual([]);
  });

  it('both committed judged sets name the language of every search, or null for none', () => {
    const multilingual = readJudgedSet(join(__dirname, 'judged-multilingual.json'));
    for (const { queries } of [multilingual, loadJudgedQueries()]) {
      for (const query of queries) {
        expect(query).toHaveProperty('language');
        expect([...SEARCH_LANGUAGES, null]).toContain(query.language);
      }
    }
    // nonsense and language-neutral searches have none; the others the one their writer meant
    const languageOf = new Map(multilingual.queries.map((query) => [query.query, query.language]));
    for (const query of ['xyzzyqqq', 'spa', 'nice', 'ski', 'zurich', 'zemratt', 'skii']) {
      expect(languageOf.get(query)).toBeNull();
    }
    expect(languageOf.get('genf')).toBe('de');
    expect(languageOf.get('geneve')).toBe('fr');
    expect(languageOf.get('pargue city break')).toBe('en');
  });

  it('holds 40 or more searches as travellers type them, of eight kinds, at least five each', () => {
    expect(TRAVELLER_QUERIES.length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(TRAVELLER_QUERIES.map((spec) => spec.type));
    expect([...kinds].sort()).toEqual([
      'traveller_departure_city',
      'traveller_multiword',
      'traveller_own_word',
      'traveller_short',
      'traveller_short_typo',
      'traveller_transposed',
      'traveller_unaccented',
      'traveller_unknown_word',
    ]);
    for (const kind of kinds) {
      expect(TRAVELLER_QUERIES.filter((spec) => spec.type === kind).length).toBeGreaterThanOrEqual(5);
    }
  });
});
