import { AnalysisWork } from './analysis-budget';
import { editDistance } from './string-metrics';
import { TermDictionary } from './term-dictionary';
import { foldWords } from './tokenizer';
import {
  indexTypos,
  isShortSearch,
  SHORT_TYPO_LENGTH,
  SHORT_TYPO_MIN_DOCUMENTS,
  SHORT_TYPO_MIN_RATIO,
  shortTypo,
  swapsOf,
  TypoCorrector,
} from './typos';

/** A dictionary of terms and their document counts, as the text index's postings give them. */
const dictionaryOf = (counts: Record<string, number>) =>
  TermDictionary.fromPostings(
    new Map(Object.entries(counts).map(([term, documents]) => [term, { ordinals: { length: documents } }])),
  );
/** A search's word as the analysis is given it: folded ("Pargue" is "pargu", as "Prague" is "pragu"). */
const folded = (word: string) => foldWords(word)[0];
/** The index typos of a word (its only variant itself), as `term edits documents`. */
const typosOf = (dictionary: TermDictionary, word: string) =>
  indexTypos(dictionary, folded(word), [folded(word)], new AnalysisWork()).map(
    (typo) => `${typo.term} ${typo.edits} ${typo.documents}`,
  );

describe('the typo rules with a swap of two adjacent letters as one edit', () => {
  const places = dictionaryOf({ pragu: 40, venise: 12, wales: 9, strand: 30, wandern: 25, zermatt: 50 });

  it('finds the index word a swap misspells, which trigrams alone miss', () => {
    expect(typosOf(places, 'Pargue')).toEqual(['pragu 1 40']);
    expect(typosOf(places, 'Vneise')).toEqual(['venise 1 12']);
    expect(typosOf(places, 'starnd')).toEqual(['strand 1 30']);
    expect(typosOf(places, 'wadnern')).toEqual(['wandern 1 25']);
    expect(typosOf(places, 'Zemratt')).toEqual(['zermatt 1 50']);
    // below pg_trgm's 0.3: only the swapped forms find them
    expect(places.similarWords('vneise')).toEqual([]);
    // a swap and another edit are two: not for a word of fewer than 9 letters
    expect(typosOf(places, 'vneisa')).toEqual([]);
  });

  it("lists a word's forms with two adjacent letters swapped", () => {
    expect(swapsOf('wlaes')).toEqual(['lwaes', 'wales', 'wleas', 'wlase']);
    expect(swapsOf('skii')).toEqual(['ksii', 'siki']);
  });

  it('corrects a word list within one edit, a swap included (the glossary, the gazetteer)', () => {
    const corrector = new TypoCorrector(['prague', 'venise', 'wales', 'wandern']);
    const closest = (word: string) => corrector.closest(word, new AnalysisWork());
    expect(closest('pargue')).toEqual({ word: 'prague', edits: 1 });
    expect(closest('vneise')).toEqual({ word: 'venise', edits: 1 });
    expect(closest('wlaes')).toEqual({ word: 'wales', edits: 1 });
    expect(closest('wadnern')).toEqual({ word: 'wandern', edits: 1 });
    expect(closest('wleas')).toBeUndefined();
    expect(editDistance('wleas', 'wales')).toBe(2);
  });
});

describe(`a word of ${SHORT_TYPO_LENGTH} letters: one edit toward a much more frequent word`, () => {
  it('corrects no shorter word, and a word of that length by one edit only', () => {
    const dictionary = dictionaryOf({ ski: 300, lago: 200 });
    // three letters, one edit from a frequent word: no typo
    expect(typosOf(dictionary, 'skj')).toEqual([]);
    // two edits from the one frequent word: none
    expect(typosOf(dictionary, 'lxgx')).toEqual([]);
    expect(typosOf(dictionary, 'lagx')).toEqual(['lago 1 200']);
  });

  it('corrects `skii` to `ski` when ski is much more frequent than any other word within one edit', () => {
    const dictionary = dictionaryOf({ ski: 300, skip: 2, kiwi: 1, yoga: 5, surf: 6, velo: 21, lago: 16 });
    expect(typosOf(dictionary, 'skii')).toEqual(['ski 1 300']);
    expect(typosOf(dictionary, 'yoha')).toEqual(['yoga 1 5']);
    expect(typosOf(dictionary, 'sutf')).toEqual(['surf 1 6']);
    expect(typosOf(dictionary, 'vwlo')).toEqual(['velo 1 21']);
    expect(typosOf(dictionary, 'lsgo')).toEqual(['lago 1 16']);
  });

  it('corrects nothing without a neighbour much more frequent than the others, and frequent enough', () => {
    // a neighbour less than SHORT_TYPO_MIN_RATIO times as frequent as the next: which one was meant
    // is a guess (`like` and `bier`, real words the multilingual catalogue lacks)
    expect(typosOf(dictionaryOf({ lake: 19, line: 3 }), 'like')).toEqual([]);
    expect(typosOf(dictionaryOf({ bien: 8, beer: 1 }), 'bier')).toEqual([]);
    expect(typosOf(dictionaryOf({ ski: 300, skis: 120 }), 'skii')).toEqual([]);
    const ratio = SHORT_TYPO_MIN_RATIO;
    expect(typosOf(dictionaryOf({ ski: 10 * ratio, skip: 10 }), 'skii')).toEqual([`ski 1 ${10 * ratio}`]);
    expect(typosOf(dictionaryOf({ ski: 10 * ratio - 1, skip: 10 }), 'skii')).toEqual([]);
    // alone, but held by fewer than SHORT_TYPO_MIN_DOCUMENTS offers (`mwer`: meer 2)
    expect(typosOf(dictionaryOf({ meer: 2 }), 'mwer')).toEqual([]);
    const fewest = SHORT_TYPO_MIN_DOCUMENTS;
    expect(typosOf(dictionaryOf({ ski: fewest - 1 }), 'skii')).toEqual([]);
    expect(typosOf(dictionaryOf({ ski: fewest }), 'skii')).toEqual([`ski 1 ${fewest}`]);
    // a shorter word only by a letter typed twice: `wein` is no misspelt `ein`
    expect(typosOf(dictionaryOf({ ein: 240, wien: 3 }), 'wein')).toEqual([]);
    // nor by its first letter: `good` is a word the catalogue lacks, not a misspelt `food`
    expect(typosOf(dictionaryOf({ food: 32 }), 'good')).toEqual([]);
    expect(typosOf(dictionaryOf({ ski: 300 }), 'ksii')).toEqual([]);
    // nonsense has no neighbour
    expect(typosOf(dictionaryOf({ ski: 300, yoga: 5 }), 'jjkw')).toEqual([]);
  });

  it('corrects nothing when the search is not a short one (indexTypos `shortTypos`: SHORT_TYPO_MAX_WORDS)', () => {
    const dictionary = dictionaryOf({ ski: 300 });
    expect(indexTypos(dictionary, 'skii', ['skii'], new AnalysisWork(), false)).toEqual([]);
    expect(indexTypos(dictionary, 'skii', ['skii'], new AnalysisWork(), true)).toHaveLength(1);
    // a longer word's typos do not depend on it
    const places = dictionaryOf({ zermatt: 50 });
    expect(indexTypos(places, 'zemratt', ['zemratt'], new AnalysisWork(), false)).toHaveLength(1);
  });

  it('tells a short search from a sentence by its words, stop words aside (isShortSearch)', () => {
    const stems = (token: string) => ({
      fr: null,
      de: null,
      en: null,
      stop: ['am', 'in', 'the'].includes(token),
    });
    expect(isShortSearch(['skii'], stems)).toBe(true);
    expect(isShortSearch(['skii', 'am', 'see', 'in', 'zermatt'], stems)).toBe(true);
    expect(isShortSearch(['i', 'want', 'to', 'go', 'skiing'], stems)).toBe(false);
  });

  it('leaves a real word alone, and a word of 3 letters', () => {
    const dictionary = dictionaryOf({ golf: 3, gold: 400, ski: 300 });
    expect(shortTypo(dictionary, 'golf', new AnalysisWork())).toEqual([]);
    expect(typosOf(dictionaryOf({ ski: 300 }), 'skj')).toEqual([]);
  });

  it('counts its look-ups on the budget, and does none once it is spent', () => {
    const dictionary = dictionaryOf({ ski: 300 });
    const work = new AnalysisWork();
    expect(typosOf(dictionary, 'skii')).toHaveLength(1);
    shortTypo(dictionary, 'skii', work);
    expect(work.bySteps.lookups).toBeGreaterThan(0);
    expect(work.total).toBeLessThan(2_000);
    expect(shortTypo(dictionary, 'skii', new AnalysisWork(100, 100))).toEqual([]);
  });
});
