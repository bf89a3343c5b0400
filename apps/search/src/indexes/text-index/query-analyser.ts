import type {
  AnalysedKind,
  AnalysedTerm,
  ExpandedTerm,
  QueryExpansion,
} from '../../query/analysis/analysed-query';
import { AnalysisWork, isAnalysable } from '../../query/analysis/analysis-budget';
import { splitIntoWords, splitPartsOf, splitWordsOf } from '../../query/analysis/compounds';
import { byAnalysisOrder, wordKey } from '../../query/analysis/query-words';
import type { QueryWord } from '../../query/analysis/query-words';
import {
  EXACT_WEIGHT,
  ONE_EDIT_WEIGHT,
  PHRASE_WEIGHT,
  SPLIT_WEIGHT,
  STOP_WEIGHT,
  TWO_EDITS_WEIGHT,
} from '../../query/analysis/similarity';
import { termFormsOf, variantsOf } from '../../query/analysis/stems';
import type { StemsOf } from '../../query/analysis/stems';
import { byDocuments } from '../../query/analysis/term-dictionary';
import type { TermDictionary } from '../../query/analysis/term-dictionary';
import { indexTypos, isShortSearch } from '../../query/analysis/typos';
import { EXPANSIONS_PER_WORD, QUERY_WORDS } from '../../query/analysis/query-limits';
import { isOtherEnding } from '../../query/dictionary/other-ending';
import type { ExpansionWeights } from '../../query/analysis/text-search';

export type { AnalysedKind, AnalysedTerm };

/**
 * The query analysis of the text side: the terms of the index a search is scored with, found in
 * one generation's term dictionary with the analysis module's rules (src/query/analysis), step by step:
 * - the search's folded words (analysis/analysed-query.ts, QueryText.words), its first `maxWords`;
 * - per word its variants: the word and its French, German and English Snowball stems;
 * - pairs of adjacent words (no stop word) as the index pairs them (`phrase`, a `pair` word);
 * - a repeated word is skipped; a stop word is looked up as its variants (`stop`); else its
 *   variants found (`exact`); else, unless the glossary knows it, the index words within 1 or 2
 *   edits, a swap of adjacent letters being one (`typo`, analysis/typos.ts; a word of 4 letters:
 *   the one much more frequent word within one edit), unless it is a real word of a language the
 *   search may be in (`isRealWord`: query/dictionary/real-words.ts); else a split in two real words (`compound`, the head as
 *   the word, the tail as its `tail`: analysis/compounds.ts);
 * - then the expansions, at most `maxExpansions` index terms per query word (and more of places
 *   and narrower, near and theme concepts);
 * - the words that matched no form of either (`unmatchedWords`, for explain).
 * The typo and compound steps are bounded (analysis/analysis-budget.ts) and count their work on
 * the search's AnalysisWork. Stems are PostgreSQL's (analysis/stems.ts, StemCache), fetched
 * before the analysis (requiredTokens), so that the analysis itself is synchronous and pure.
 */

/** The kinds of a place's names (the gazetteer): capped apart from the glossary's words. */
const PLACE_KINDS = new Set<AnalysedKind>(['place', 'within']);
/** The most index terms of place names a query word gains (a region's towns, in their languages). */
const PLACE_EXPANSIONS_PER_WORD = 64;
/** The most index terms of narrower concepts a query word gains (heaviest, then most offers). */
const NARROWER_EXPANSIONS_PER_WORD = 24;
/** The most index terms of near concepts and themes a query word gains (heaviest, then most offers). */
const RELATED_EXPANSIONS_PER_WORD = 24;

/** Limits of the call (analysis/query-limits.ts: QUERY_WORDS, EXPANSIONS_PER_WORD). */
export interface QueryAnalyserLimits {
  maxWords: number;
  maxExpansions: number;
}

/**
 * The analyser of one generation's dictionary: `analyse` gives the terms of a search, its
 * expansion and its weights (the expanded terms of a kind weighing 0 left out).
 */
export class QueryAnalyser {
  constructor(
    readonly dictionary: TermDictionary,
    private readonly limits: QueryAnalyserLimits = {
      maxWords: QUERY_WORDS,
      maxExpansions: EXPANSIONS_PER_WORD,
    },
  ) {}

  /** The terms of a search: per query word its pair, then its own terms; then the expansions by word and rank. */
  analyse(
    queryWords: readonly string[],
    expansion: QueryExpansion,
    weights: ExpansionWeights,
    stems: StemsOf,
    shortSearch = isShortSearch(queryWords.slice(0, this.limits.maxWords), stems),
    /** Whether a word is a real word of a language the search may be in: never a typo. */
    isRealWord: (word: string) => boolean = () => false,
  ): AnalysedTerm[] {
    const words = queryWords.slice(0, this.limits.maxWords);
    const split = splitWordsOf(words);
    const work = expansion.work ?? new AnalysisWork();
    const expanded = keptExpansions(expansion, weights);
    // without a kept expansion, the glossary's known words are corrected and split as any other
    const knownWords = new Set(expanded.length ? expansion.knownWords : []);
    const rows: AnalysedTerm[] = [];
    let previous: string[] | undefined;
    // a 4-letter word is corrected only in a short search (typos.ts, SHORT_TYPO_MAX_WORDS)
    let previousStop = false;
    words.forEach((token, index) => {
      const position = index + 1;
      const word: QueryWord = { kind: 'word', position };
      const forms = stems(token);
      const variants = variantsOf(token, forms);
      const { stop } = forms;
      if (previous && !stop && !previousStop) {
        const pairs = previous.map((first, k) => `${first} ${variants[k]}`);
        this.found(rows, { kind: 'pair', position }, pairs, PHRASE_WEIGHT, 'phrase');
      }
      previous = variants;
      previousStop = stop;
      if (words.indexOf(token) < index) return;
      if (stop) {
        this.found(rows, word, variants, STOP_WEIGHT, 'stop');
        return;
      }
      if (this.found(rows, word, variants, EXACT_WEIGHT, 'exact') > 0) return;
      if (knownWords.has(token) || !isAnalysable(token)) return;
      let typos = indexTypos(this.dictionary, token, variants, work, shortSearch);
      // the dictionaries asked only of a word that would be corrected
      // (a real word keeps only its corrections into another ending of itself or of its stems:
      // `schneeschuhwanderung`, stem `schneeschuhwander`, → `schneeschuhwand`; isOtherEnding)
      const sameWord = (typo: { term: string }) =>
        variants.some((variant) => isOtherEnding(variant, typo.term));
      if (!typos.every(sameWord) && isRealWord(token)) typos = typos.filter(sameWord);
      for (const typo of typos) {
        const weight = typo.edits === 1 ? ONE_EDIT_WEIGHT : TWO_EDITS_WEIGHT;
        rows.push(this.counted({ word, term: typo.term, documents: typo.documents, weight, kind: 'typo' }));
      }
      if (typos.length > 0 || !split.has(token)) return;
      const parts = splitIntoWords(
        token,
        stems,
        (term) => this.dictionary.documentsOf(term) !== undefined,
        work,
      );
      if (!parts) return;
      this.found(rows, word, parts.head, SPLIT_WEIGHT, 'compound');
      this.found(rows, { kind: 'tail', position }, parts.tail, SPLIT_WEIGHT, 'compound');
    });
    if (expanded.length) rows.push(...this.expansions(words, expanded, weights, stems));
    return rows;
  }

  /**
   * The search's folded words (its first `maxWords`, each once, in order) that matched no form in
   * `rows` (its analysis): no term counts for the word or its tail (exact, stem, typo, compound,
   * translation, place …), and it is neither a stop word nor another word of a place's name of
   * several words. Explain lists them (`unmatched_words`), so that a client can say what the
   * search did not understand instead of answering for the other words as if it had.
   */
  unmatchedWords(
    queryWords: readonly string[],
    rows: readonly AnalysedTerm[],
    expansion: QueryExpansion,
    stems: StemsOf,
  ): string[] {
    const words = queryWords.slice(0, this.limits.maxWords);
    const matched = new Set(rows.filter((row) => row.word.kind !== 'pair').map((row) => row.word.position));
    const placeNameWords = new Set(expansion.placeNameWords ?? []);
    return words.filter(
      (token, index) =>
        words.indexOf(token) === index &&
        !matched.has(index + 1) &&
        !placeNameWords.has(token) &&
        !stems(token).stop,
    );
  }

  /** The term with its frequency (D-86) where that differs from its document count. */
  private counted(term: AnalysedTerm): AnalysedTerm {
    const frequency = this.dictionary.frequencyOf(term.term);
    return frequency === undefined || frequency === term.documents ? term : { ...term, frequency };
  }

  /** Appends the terms of `terms` the index holds (each once); how many. */
  private found(
    rows: AnalysedTerm[],
    word: QueryWord,
    terms: string[],
    weight: number,
    kind: AnalysedKind,
  ): number {
    let count = 0;
    terms.forEach((term, k) => {
      if (terms.indexOf(term) < k) return;
      const documents = this.dictionary.documentsOf(term);
      if (documents === undefined) return;
      rows.push(this.counted({ word, term, documents, weight, kind }));
      count++;
    });
    return count;
  }

  /**
   * Each expanded term looked up in its forms (termFormsOf; never one of its query word's own
   * forms), counting for the first position of its query word; per (word, term) the highest
   * weight (among equal weights of different kinds, the expansion given first); per word the
   * `maxExpansions` weighing most, then held by the most offers, then by term.
   */
  private expansions(
    words: readonly string[],
    expanded: ExpandedTerm[],
    weights: ExpansionWeights,
    stems: StemsOf,
  ): AnalysedTerm[] {
    const byWord = new Map<string, { word: QueryWord; terms: Map<string, AnalysedTerm> }>();
    for (const expansion of expanded) {
      const position = words.indexOf(expansion.token) + 1;
      if (position === 0) continue;
      // a compound's second concept counts for its tail, as the analyser's own split
      const word: QueryWord = { kind: expansion.tail ? 'tail' : 'word', position };
      const forms = termFormsOf(expansion.term, stems);
      const own = termFormsOf(expansion.token, stems);
      // a term or a query word without forms (no word, or only a pair of stop words) adds nothing
      if (!forms || !own) continue;
      const weight = Math.fround(weights[expansion.kind]);
      const key = wordKey(word);
      const terms = byWord.get(key)?.terms ?? new Map<string, AnalysedTerm>();
      byWord.set(key, { word, terms });
      forms.forEach((term, k) => {
        if (forms.indexOf(term) < k || own.includes(term)) return;
        const documents = this.dictionary.documentsOf(term);
        if (documents === undefined) return;
        const kept = terms.get(term);
        if (!kept || weight > kept.weight)
          terms.set(term, this.counted({ word, term, documents, weight, kind: expansion.kind }));
      });
    }
    const rows: AnalysedTerm[] = [];
    const ordered = [...byWord.values()].sort((a, b) => byAnalysisOrder(a.word, b.word));
    for (const { terms } of ordered) {
      const ranked = [...terms.values()].sort((a, b) => b.weight - a.weight || byDocuments(a, b));
      // a place's names and a narrower concept's words come on top of the glossary's words: a
      // region's towns are many, each rare; a broader concept includes several others
      const isPlace = (row: AnalysedTerm) => PLACE_KINDS.has(row.kind);
      const isNarrower = (row: AnalysedTerm) => row.kind === 'narrower';
      const isRelated = (row: AnalysedTerm) => row.kind === 'related';
      rows.push(
        ...ranked
          .filter((row) => !isPlace(row) && !isNarrower(row) && !isRelated(row))
          .slice(0, this.limits.maxExpansions),
        ...ranked.filter(isNarrower).slice(0, NARROWER_EXPANSIONS_PER_WORD),
        ...ranked.filter(isRelated).slice(0, RELATED_EXPANSIONS_PER_WORD),
        ...ranked.filter(isPlace).slice(0, PLACE_EXPANSIONS_PER_WORD),
      );
    }
    return rows;
  }
}

/** The expanded terms the analysis reads: those whose kind weighs more than 0. */
function keptExpansions(expansion: QueryExpansion, weights: ExpansionWeights): ExpandedTerm[] {
  return expansion.terms.filter((term) => weights[term.kind] > 0);
}

/**
 * The tokens whose stems an analysis of a search's folded words needs (StemCache): each of its
 * first `maxWords` words; for a word the text side may split (splitWordsOf) the parts of each cut
 * (splitPartsOf); and the words of the kept expanded terms and the query words they count for.
 */
export function requiredTokens(
  queryWords: readonly string[],
  expansion: QueryExpansion,
  weights: ExpansionWeights,
  maxWords = QUERY_WORDS,
): string[] {
  const tokens = new Set<string>();
  const words = queryWords.slice(0, maxWords);
  const split = splitWordsOf(words);
  for (const word of words) {
    tokens.add(word);
    if (split.has(word)) for (const part of splitPartsOf(word)) tokens.add(part);
  }
  for (const term of keptExpansions(expansion, weights)) {
    tokens.add(term.token);
    for (const word of term.term.split(' ')) if (word !== '') tokens.add(word);
  }
  return [...tokens];
}
