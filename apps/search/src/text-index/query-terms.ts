import type { AnalysedTerm } from './query-analyser';
import { roundHalfEven, SCALE } from './text-index';
import type { TextQuery } from './text-index';

/**
 * How the text side weighs a search's terms (apps/search/README.md, "The text side"), computed
 * once in TypeScript and used alike by the in-memory scoring and the SQL strategies (which receive
 * the factors as parameters), so both score with the very same numbers.
 */

/** A term held by more than this share of the offers does not select offers on its own. */
export const FREQUENT_WORD_SHARE = 0.1;
/** Rarity weighs more than in plain BM25 (measured: docs/benchmarks.md, part 3). */
export const IDF_EXPONENT = 1.5;

const EXPANDED_KINDS = new Set(['glossary', 'synonym']);

/** A query term with its BM25 weight: `factor` = weight × idf^IDF_EXPONENT. */
export interface QueryTerm extends AnalysedTerm {
  idf: number;
  factor: number;
  /**
   * A stop word, a term held by more than FREQUENT_WORD_SHARE of the offers, or an expansion of a
   * word whose own terms are frequent ("hotel" selecting nothing on its own, its "hébergement"
   * does not either).
   */
  frequent: boolean;
}

/** BM25's idf of a term held by `documents` of `offers` offers. */
export function idfOf(documents: number, offers: number): number {
  return Math.log(1 + (offers - documents + 0.5) / (documents + 0.5));
}

/** The analysed terms with their idf, factor and frequency, against a catalogue of `offers` offers. */
export function queryTermsOf(analysed: AnalysedTerm[], offers: number): QueryTerm[] {
  const terms = analysed.map((term) => {
    const idf = idfOf(term.documents, offers);
    return {
      ...term,
      idf,
      factor: term.weight * Math.pow(idf, IDF_EXPONENT),
      frequent: term.kind === 'stop' || term.documents > FREQUENT_WORD_SHARE * offers,
    };
  });
  const frequentWords = new Set(
    terms.filter((term) => term.frequent && !EXPANDED_KINDS.has(term.kind)).map((term) => term.word),
  );
  return terms.map((term) =>
    EXPANDED_KINDS.has(term.kind) && frequentWords.has(term.word) ? { ...term, frequent: true } : term,
  );
}

/**
 * What the scoring needs of the terms (text-side.sql.ts, `qs` and `coverable`): a query word is a
 * word number below 1000 (a pair's is 1000 + i and covers nothing); a term selects offers unless
 * it is frequent or a pair, and when every word is frequent the rarest word (highest idf, then the
 * lowest number) selects; `cov` is a word's share of the query, `coverable` the sum of each word's
 * best.
 */
export function textQueryOf(terms: QueryTerm[]): TextQuery {
  const isWord = (term: QueryTerm) => term.word < 1000;
  let fallbackWord: number | undefined;
  if (!terms.some((term) => isWord(term) && !term.frequent)) {
    let rarest: QueryTerm | undefined;
    for (const term of terms) {
      if (!isWord(term)) continue;
      if (!rarest || term.idf > rarest.idf || (term.idf === rarest.idf && term.word < rarest.word))
        rarest = term;
    }
    fallbackWord = rarest?.word;
  }
  const bestCov = new Map<number, number>();
  const scored = terms.map((term) => {
    const cov = isWord(term) ? roundHalfEven(term.factor * SCALE) : 0;
    if (isWord(term)) bestCov.set(term.word, Math.max(bestCov.get(term.word) ?? 0, cov));
    return {
      word: term.word,
      term: term.term,
      factor: term.factor,
      cov,
      selects: (isWord(term) && !term.frequent) || term.word === fallbackWord,
    };
  });
  let coverable = 0;
  for (const cov of bestCov.values()) coverable += cov;
  return { terms: scored, coverable };
}
