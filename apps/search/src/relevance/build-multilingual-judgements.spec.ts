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
  WORDS_QUERIES,
  WORLD_QUERIES,
} from './build-multilingual-judgements';
import {
  loadJudgedQueries,
  NO_ANSWER_TYPES,
  QUERY_TYPES,
  readJudgedSet,
  REPORTED_ONLY_TYPES,
  SEARCH_LANGUAGES,
} from './relevance';

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

  it('grades a search with places near it by them: 2 near with every concept, 1 in the region with every concept', () => {
    const town: QuerySpec = {
      type: 'world_town_unnamed',
      query: 'ski a tasch',
      language: 'fr',
      places: ['valais'],
      concepts: ['skiing'],
      near: ['zermatt'],
    };
    expect(gradeOf(town, offer(['zermatt'], ['skiing', 'mountains']), places)).toBe(2);
    expect(gradeOf(town, offer(['zermatt'], ['hiking', 'skiing']), places)).toBe(2);
    expect(gradeOf(town, offer(['valais'], ['skiing']), places)).toBe(1);
    expect(gradeOf(town, offer(['valais'], ['wellness']), places)).toBe(0);
    expect(gradeOf(town, offer(['montreux'], ['skiing']), places)).toBe(0);
    const noOffer: QuerySpec = {
      type: 'world_no_offer',
      query: 'ski in liechtenstein',
      language: 'en',
      concepts: ['skiing', 'family'],
      near: ['valais'],
    };
    expect(gradeOf(noOffer, offer(['zermatt'], ['skiing', 'family']), places)).toBe(2);
    expect(gradeOf(noOffer, offer(['zermatt'], ['skiing']), places)).toBe(1);
    expect(gradeOf(noOffer, offer(['zermatt'], ['wellness']), places)).toBe(0);
    expect(gradeOf(noOffer, offer(['montreux'], ['skiing', 'family']), places)).toBe(0);
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

  it("holds 40 or more searches of the traveller's words, of eight kinds, at least five each, and ten function-word strings", () => {
    const real = WORDS_QUERIES.filter((spec) => spec.type !== 'words_function_word');
    expect(real.length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(real.map((spec) => spec.type));
    expect([...kinds].sort()).toEqual([
      'words_compound_offer',
      'words_frequent_theme',
      'words_item_theme',
      'words_language_first',
      'words_loanword_typo',
      'words_own_synonym',
      'words_real_word',
      'words_sentence',
    ]);
    for (const kind of kinds) {
      expect(real.filter((spec) => spec.type === kind).length).toBeGreaterThanOrEqual(5);
      expect(REPORTED_ONLY_TYPES).toContain(kind);
    }
    const functionWords = WORDS_QUERIES.filter((spec) => spec.type === 'words_function_word');
    expect(functionWords.length).toBeGreaterThanOrEqual(10);
    expect(NO_ANSWER_TYPES).toContain('words_function_word');
    expect(REPORTED_ONLY_TYPES).toContain('words_function_word');
    // a sentence is more than three words; a misspelt place beside a shared word has no language
    for (const spec of WORDS_QUERIES.filter((s) => s.type === 'words_sentence')) {
      expect(foldedWords(spec.query).length).toBeGreaterThan(3);
    }
    for (const spec of WORDS_QUERIES.filter((s) => s.type === 'words_loanword_typo')) {
      expect(spec.language).toBeUndefined();
    }
  });

  it('holds 40 or more searches of the world, of four kinds, each kind in each of the four languages', () => {
    expect(WORLD_QUERIES.length).toBeGreaterThanOrEqual(40);
    const kinds = ['world_kind_of_place', 'world_no_offer', 'world_region', 'world_town_unnamed'];
    expect([...new Set(WORLD_QUERIES.map((spec) => spec.type))].sort()).toEqual(kinds);
    for (const kind of kinds) {
      const languages = WORLD_QUERIES.filter((spec) => spec.type === kind).map((spec) => spec.language);
      expect([...new Set(languages)].sort()).toEqual([...SEARCH_LANGUAGES].sort());
      expect(REPORTED_ONLY_TYPES).toContain(kind);
      expect(NO_ANSWER_TYPES).not.toContain(kind);
    }
    // a town no offer names and a place with no offer are judged by the places near them
    for (const spec of WORLD_QUERIES.filter(
      (s) => s.type === 'world_town_unnamed' || s.type === 'world_no_offer',
    )) {
      expect(spec.near?.length).toBeGreaterThan(0);
    }
  });

  it('a function-word string grades nothing, has no language, and holds exactly one catalogue word', () => {
    const places: Record<string, PlaceEntry> = { valais: { name: 'Valais', country: 'CH', in: [] } };
    const annotations: Annotations = {
      places,
      offers: {
        a: { name: 'Ski in Valais', language: 'en', country: 'CH', places: ['valais'], concepts: [] },
      },
    };
    const catalogue = [{ id: 'a', name: 'Ski in Valais', language: 'en' }];
    const filler = Array.from({ length: 80 }, (_, i): QuerySpec => ({
      type: 'destination',
      query: `valais ${i}`,
      language: undefined,
      places: ['valais'],
    }));
    const nonsense = Array.from({ length: 10 }, (_, i): QuerySpec => ({
      type: 'nonsense',
      query: `qqzx${'k'.repeat(i + 1)}`,
      language: undefined,
    }));
    const strings = (queries: string[]): QuerySpec[] =>
      queries.map((query) => ({ type: 'words_function_word', query, language: undefined }));
    const ten = strings(Array.from({ length: 10 }, (_, i) => `qqxvz${'k'.repeat(i + 1)} in wbrtlp`));
    const judged = judge(catalogue, annotations, [...filler, ...nonsense, ...ten]);
    expect(judged.filter((q) => q.type === 'words_function_word').map((q) => q.relevant)).toEqual(
      Array.from({ length: 10 }, () => ({})),
    );
    expect(() =>
      judge(catalogue, annotations, [
        ...filler,
        ...nonsense,
        ...ten.slice(1),
        ...strings(['ski in wbrtlp', 'qqxvzk wbrtlp']),
      ]),
    ).toThrow(/ski in wbrtlp: needs exactly one catalogue word[\s\S]*qqxvzk wbrtlp: needs exactly one/);
    expect(() => judge(catalogue, annotations, [...filler, ...nonsense, ...ten.slice(1)])).toThrow(
      '9 words_function_word queries, fewer than 10',
    );
    expect(
      languageProblems({ type: 'words_function_word', query: 'qqxvzk in wbrtlp', language: 'de' }),
    ).toEqual(['qqxvzk in wbrtlp: a words_function_word query has no language']);
  });
});
