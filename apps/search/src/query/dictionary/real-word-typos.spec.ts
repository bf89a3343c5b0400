import { AnalysisWork } from '../analysis/analysis-budget';
import { TermDictionary } from '../analysis/term-dictionary';
import { foldWords } from '../analysis/tokenizer';
import type { StemsOf } from '../analysis/stems';
import type { ExpansionWeights } from '../analysis/text-search';
import { loadTravelGlossary } from '../glossary/glossary';
import { glossaryRules, NO_EXPANSION, QueryExpander } from '../glossary/query-expander';
import { loadStopWords } from '../glossary/stop-words';
import { QueryAnalyser } from '../../indexes/text-index/query-analyser';
import { RealWords } from './real-words';

/** The typo rules asking the dictionaries (D-82): the index's typos and the glossary's corrector. */
describe('the typo rules with the real-word checks', () => {
  let realWords: RealWords;
  beforeAll(async () => {
    realWords = await RealWords.load();
  });
  const isRealWord = (work: AnalysisWork) => (word: string) => realWords.isWord(word, undefined, work);

  const index = TermDictionary.fromPostings(
    new Map(
      Object.entries({ tapas: 12, bracken: 3, mare: 40, paris: 9, wander: 5 }).map(([term, documents]) => [
        term,
        { ordinals: { length: documents } },
      ]),
    ),
  );
  const analyser = new QueryAnalyser(index);
  // no expansion is read: every kind weighs 0
  const NO_WEIGHTS: ExpansionWeights = {
    glossary: 0,
    synonym: 0,
    compound: 0,
    place: 0,
    within: 0,
    narrower: 0,
    related: 0,
  };
  const noStems: StemsOf = () => ({ fr: null, de: null, en: null, stop: false });
  const typos = (search: string, checked: boolean) => {
    const work = new AnalysisWork();
    const expansion = { ...NO_EXPANSION, work };
    const rows = analyser.analyse(
      foldWords(search),
      expansion,
      NO_WEIGHTS,
      noStems,
      true,
      checked ? isRealWord(work) : undefined,
    );
    return rows.filter((row) => row.kind === 'typo').map((row) => `${row.word.position} ${row.term}`);
  };

  it('the index leaves a real word alone and still corrects a misspelling', () => {
    // without the dictionaries, each real word became a word of the index
    expect(typos('tapis brucken mars', false)).toEqual(['1 tapas', '2 bracken', '3 mare']);
    expect(typos('tapis brucken mars', true)).toEqual([]);
    expect(typos('tapsa', true)).toEqual(['1 tapas']);
  });

  it("the glossary's corrector leaves a real word alone and still corrects a misspelling", () => {
    const expander = new QueryExpander(glossaryRules(loadTravelGlossary()), undefined, loadStopWords());
    const misspelt = (search: string, checked: boolean) => {
      const work = new AnalysisWork();
      const expansion = expander.expand(foldWords(search), work, checked ? isRealWord(work) : undefined);
      return expansion.terms.length > 0;
    };
    // `march` (the month) was the glossary's `marche` (a market)
    expect(misspelt('march', false)).toBe(true);
    expect(misspelt('march', true)).toBe(false);
    expect(misspelt('hikign', true)).toBe(true);
  });
});
