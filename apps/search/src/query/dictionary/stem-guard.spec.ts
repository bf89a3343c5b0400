import { AnalysisWork } from '../analysis/analysis-budget';
import type { TokenForms } from '../analysis/stems';
import { RealWords } from './real-words';
import { guardedStems } from './stem-guard';

/** PostgreSQL's stems of the examples (travel_fr_stem, travel_de_stem, travel_en_stem). */
const STEMS: Record<string, TokenForms> = {
  meer: { fr: 'me', de: 'meer', en: 'meer', stop: false },
  terme: { fr: 'term', de: 'term', en: 'term', stop: false },
  geneve: { fr: 'genev', de: 'genev', en: 'genev', stop: false },
  wanderungen: { fr: 'wanderungen', de: 'wander', en: 'wanderungen', stop: false },
  randonnees: { fr: 'randonne', de: 'randonne', en: 'randonne', stop: false },
  zermatt: { fr: 'zermatt', de: 'zermatt', en: 'zermatt', stop: false },
  bale: { fr: 'bal', de: 'bal', en: 'bale', stop: false },
  dolomiti: { fr: 'dolomit', de: 'dolomiti', en: 'dolom', stop: false },
};
const stemsOf = (token: string): TokenForms => STEMS[token] ?? { fr: null, de: null, en: null, stop: false };

describe('guardedStems (stem collisions across languages, D-82)', () => {
  let realWords: RealWords;

  beforeAll(async () => {
    realWords = await RealWords.load();
  });

  it("drops a language's stem of another language's common word that the language does not have", () => {
    const stems = guardedStems(stemsOf, realWords, new Set());
    // German "Meer" stemmed by French is "me"; it keeps its own form and German's stem
    expect(stems('meer')).toMatchObject({ fr: null, de: 'meer' });
    // French and German "terme": English's stem is the same as theirs, a cognate's
    expect(stems('terme')).toEqual(STEMS.terme);
    expect(stems('randonnees')).toEqual(STEMS.randonnees);
    // an Italian word has no stemmer of its own: French, German and English stems find its cognates
    expect(stems('dolomiti')).toEqual(STEMS.dolomiti);
    expect(stems('wanderungen')).toMatchObject({ de: 'wander' });
  });

  it('keeps the stems of a name a dictionary knows, of a word no dictionary knows, and of a place', () => {
    const stems = guardedStems(stemsOf, realWords, new Set(['bale']));
    // Genève: the French dictionary's name, stemmed as the French offers' "Genève" is
    expect(stems('geneve')).toMatchObject({ fr: 'genev' });
    expect(stems('zermatt')).toEqual(STEMS.zermatt);
    // a place's word (the gazetteer's) is left as it is
    expect(stems('bale')).toEqual(STEMS.bale);
    expect(guardedStems(stemsOf, realWords, new Set())('bale').de).toBeNull();
  });

  it('counts its checks on the search', () => {
    const work = new AnalysisWork();
    guardedStems(stemsOf, realWords, new Set(), work)('meer');
    expect(work.bySteps.lookups).toBeGreaterThan(0);
  });
});
