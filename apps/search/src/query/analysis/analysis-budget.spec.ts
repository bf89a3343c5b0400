import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTILE_SEARCHES } from '../../bench/hostile-searches';
import { TYPED_SEARCHES } from '../../bench/typed-searches';
import { generateCatalogue } from '../../catalogue/catalogue-generator';
import { QueryExpansionService } from '../glossary/query-expansion.service';
import type { QueryExpansionSettings } from '../glossary/query-expansion.settings';
import type { ExpansionWeights } from './text-search';
import {
  AnalysisWork,
  MAX_ANALYSED_WORD_LENGTH,
  MAX_SPLIT_WORDS,
  SEARCH_WORK_BUDGET,
  WORD_WORK_BUDGET,
} from './analysis-budget';
import { QueryAnalyser, requiredTokens } from '../../indexes/text-index/query-analyser';
import type { AnalysedTerm } from '../../indexes/text-index/query-analyser';
import { QUERY_WORDS } from './query-limits';
import type { TokenForms } from './stems';
import { TermDictionary } from './term-dictionary';
import { foldWords } from './tokenizer';
import { readQueryText } from './analysed-query';

const WEIGHTS: ExpansionWeights = {
  glossary: 0.9,
  synonym: 0.9,
  compound: 0.8,
  place: 0.9,
  within: 0.6,
  narrower: 0.5,
  related: 0.5,
};
const RELEVANCE = join(__dirname, '..', '..', 'relevance');

/** The demo catalogue's words (generated:2000) and the multilingual judged catalogue's, with their document counts. */
function demoDictionary(): TermDictionary {
  const counts = new Map<string, number>();
  const add = (text: string) => {
    for (const word of new Set(foldWords(text))) counts.set(word, (counts.get(word) ?? 0) + 1);
  };
  for (const offer of generateCatalogue({ count: 2000 })) add(JSON.stringify(offer));
  const multilingual = readFileSync(join(RELEVANCE, 'multilingual-catalogue.ndjson'), 'utf8');
  for (const line of multilingual.split('\n')) if (line.trim()) add(line);
  return TermDictionary.fromPostings(
    new Map(Array.from(counts, ([term, documents]) => [term, { ordinals: { length: documents } }])),
  );
}

/** Counts the dictionary look-ups the analysis makes (work the budget does not count itself). */
class CountingDictionary {
  lookups = 0;
  wrap(dictionary: TermDictionary): TermDictionary {
    const documentsOf = dictionary.documentsOf.bind(dictionary);
    dictionary.documentsOf = (term: string) => {
      this.lookups++;
      return documentsOf(term);
    };
    return dictionary;
  }
}

const counting = new CountingDictionary();
const analyser = new QueryAnalyser(counting.wrap(demoDictionary()));
const expansions = new QueryExpansionService({
  SEARCH_GLOSSARY_WEIGHT: 0.9,
  SEARCH_SYNONYMS_SOURCE: undefined,
} as unknown as QueryExpansionSettings);

interface Analysis {
  work: AnalysisWork;
  terms: AnalysedTerm[];
  stemTokens: string[];
  lookups: number;
}

/** A search's whole analysis, as QueryAnalysisService runs it (stems: none, every word a word). */
function analyse(search: string): Analysis {
  counting.lookups = 0;
  const query = readQueryText(search);
  const expansion = expansions.withCorrectedPlaces(
    expansions.expand(query),
    query.words,
    (word) => analyser.dictionary.documentsOf(word) !== undefined,
  );
  const stemTokens = requiredTokens(query.words, expansion, WEIGHTS);
  const fetched = new Set(stemTokens);
  const stems = (token: string): TokenForms => {
    if (!fetched.has(token)) throw new Error(`"${token}" was not in requiredTokens`);
    return { fr: null, de: null, en: null, stop: false };
  };
  // the real-word checks (query/dictionary) count on the same budget
  const isRealWord = (word: string) =>
    expansions.isRealWord(word, expansion.language?.language, expansion.work!);
  const terms = analyser.analyse(query.words, expansion, WEIGHTS, stems, undefined, isRealWord);
  return { work: expansion.work!, terms, stemTokens, lookups: counting.lookups };
}

describe('the analysis budget', () => {
  const real = [
    ...JSON.parse(readFileSync(join(RELEVANCE, 'judged-multilingual.json'), 'utf8')).queries,
    ...JSON.parse(readFileSync(join(RELEVANCE, 'judged-queries.json'), 'utf8')).queries,
  ].map((query: { query: string }) => query.query);
  const searches = [...real, ...TYPED_SEARCHES.map((query) => query.search)];

  beforeAll(() => expansions.loadRealWords());

  it('never cuts a judged or typed search short (their ranking is unchanged)', () => {
    expect(searches.length).toBeGreaterThan(300);
    for (const search of searches) {
      const { work } = analyse(search);
      expect({ search, refusals: work.refusals }).toEqual({ search, refusals: 0 });
      expect(work.maxWord).toBeLessThanOrEqual(WORD_WORK_BUDGET / 2);
      const splitWords = new Set(foldWords(search).filter((word) => word.length >= 8));
      expect(splitWords.size).toBeLessThanOrEqual(MAX_SPLIT_WORDS);
    }
    // the budgets are measured, not guessed: three times the costliest search
    const costs = searches.map((search) => analyse(search).work);
    const costliest = Math.max(...costs.map((work) => work.total));
    expect(costliest).toBeGreaterThan(SEARCH_WORK_BUDGET / 4);
    expect(costliest).toBeLessThanOrEqual(SEARCH_WORK_BUDGET / 3);
  });

  it.each(HOSTILE_SEARCHES)('bounds the work of a hostile search: %s', (_, search) => {
    expect(Array.from(search).length).toBeLessThanOrEqual(500);
    const { work, stemTokens, lookups } = analyse(search);
    // counted work: within the named budgets
    expect(work.total).toBeLessThanOrEqual(SEARCH_WORK_BUDGET);
    expect(work.maxWord).toBeLessThanOrEqual(WORD_WORK_BUDGET);
    // work the budget does not count: the stems fetched from PostgreSQL (the words, and the cuts
    // of the few words split), and the dictionary look-ups
    const maxCuts = 2 * (MAX_ANALYSED_WORD_LENGTH - 7);
    expect(stemTokens.length).toBeLessThanOrEqual(QUERY_WORDS + MAX_SPLIT_WORDS * maxCuts + 64);
    const stemCharacters = stemTokens.reduce((sum, token) => sum + token.length, 0);
    expect(stemCharacters).toBeLessThanOrEqual(
      QUERY_WORDS * 1000 + MAX_SPLIT_WORDS * maxCuts * MAX_ANALYSED_WORD_LENGTH,
    );
    expect(lookups).toBeLessThanOrEqual(2_000);
  });

  it('matches a word longer than the limit as it is: no typo, compound, misspelt place or language guess', () => {
    const long = 'schneeschuhwanderung'.repeat(2); // 40 letters, two known words in one
    expect(long.length).toBeGreaterThan(MAX_ANALYSED_WORD_LENGTH);
    const { work, terms, stemTokens } = analyse(long);
    expect(work.total).toBe(0);
    expect(terms.filter((term) => term.kind === 'typo' || term.kind === 'compound')).toEqual([]);
    expect(stemTokens).toEqual([long]);
    // at the limit, the same word is still split and corrected as before
    const atLimit = analyse('schneeschuhwandrung');
    expect(atLimit.work.total).toBeGreaterThan(0);
    expect(atLimit.terms.some((term) => term.kind === 'typo' || term.kind === 'compound')).toBe(true);
  });

  it('stops a step when the budget is spent, spending nothing past it', () => {
    const work = new AnalysisWork(10, 15);
    expect(work.spend('a', 'edits', 10)).toBe(true);
    expect(work.spend('a', 'edits', 1)).toBe(false);
    expect(work.spend('b', 'deletions', 6)).toBe(false);
    expect(work.spend('b', 'deletions', 5)).toBe(true);
    expect([work.total, work.maxWord, work.refusals, work.bySteps.edits, work.bySteps.deletions]).toEqual([
      15, 10, 2, 10, 5,
    ]);
    const copy = work.copy();
    expect(copy.spend('c', 'splits', 1)).toBe(false);
    expect(work.total).toBe(15);
  });
});
