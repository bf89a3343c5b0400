import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Annotations,
  covers,
  foldedWords,
  gradeOf,
  judge,
  OfferAnnotation,
  PlaceEntry,
  placeClosure,
  QUERIES,
} from './build-multilingual-judgements';
import { NO_ANSWER_TYPES, QUERY_TYPES, readJudgedSet } from './relevance';

describe('the multilingual judged set (issue 37)', () => {
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
    const ski = {
      type: 'cross_language' as const,
      query: 'ski wallis',
      places: ['valais'],
      concepts: ['skiing'],
    };
    expect(gradeOf(ski, offer(['zermatt'], ['skiing', 'mountains']), places)).toBe(2);
    expect(gradeOf(ski, offer(['zermatt'], ['wellness']), places)).toBe(1);
    expect(gradeOf(ski, offer(['montreux'], ['skiing']), places)).toBe(0);
    const lakeHike = { type: 'homonym' as const, query: 'wanderung am see', concepts: ['hiking', 'lake'] };
    expect(gradeOf(lakeHike, offer(['montreux'], ['hiking', 'lake']), places)).toBe(2);
    expect(gradeOf(lakeHike, offer(['montreux'], ['lake', 'culture']), places)).toBe(1);
    expect(gradeOf(lakeHike, offer(['zermatt'], ['skiing']), places)).toBe(0);
    const place = { type: 'destination' as const, query: 'wallis', places: ['valais'] };
    expect(gradeOf(place, offer(['zermatt'], []), places)).toBe(2);
    expect(gradeOf({ type: 'nonsense', query: 'xyzzyqqq' }, offer(['zermatt'], []), places)).toBe(0);
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
    for (const spec of QUERIES) expect(QUERY_TYPES).toContain(spec.type);
    expect(NO_ANSWER_TYPES).toEqual(['nonsense']);
  });

  it('refuses annotations that disagree with the catalogue and queries without a relevant offer', () => {
    const annotations: Annotations = { places, offers: { a: offer(['zermatt'], ['skiing']) } };
    expect(() =>
      judge([{ id: 'b', name: 'x' }], annotations, [
        { type: 'destination', query: 'genf', places: ['lake_geneva'] },
      ]),
    ).toThrow(/b: no annotation[\s\S]*a: annotated but not in the catalogue[\s\S]*genf: no offer graded 2/);
  });
});
