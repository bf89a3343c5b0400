import { PAIR_WORD } from '../analysis/query-words';
import type { AnalysedTerm } from './query-analyser';
import type { TextQuery } from './text-index';

/**
 * How the text side weighs a search's terms (apps/search/README.md, "The text side"): each term's
 * BM25 factor, which terms select offers, and the concepts of the search an offer covers.
 */

/** A term held by more than this share of the offers does not select offers on its own. */
export const FREQUENT_WORD_SHARE = 0.1;
/** Rarity weighs more than in plain BM25 (measured: docs/benchmarks.md, part 3). */
export const IDF_EXPONENT = 1.5;

const EXPANDED_KINDS = new Set(['glossary', 'synonym', 'place', 'within', 'narrower']);
/** The kinds that are a query word's own forms (the others are gained by expansion or pair words). */
const OWN_KINDS = new Set(['exact', 'stop', 'typo', 'compound']);

/**
 * What a query word weighs as a concept of the search (apps/search/README.md, "Concept coverage"):
 * a word that says what the traveller looks for (a place, an activity) is a major concept; a word
 * too general to say it ("holiday", "reise", "week": the glossary's `general` concepts) or held by
 * more than FREQUENT_WORD_SHARE of the offers is a minor one, worth a quarter of a major; a stop
 * word is none (unless the search has nothing else). An offer covering more concept weight ranks
 * first, whatever the languages of the forms that cover them.
 */
export const MAJOR_CONCEPT = 4;
export const MINOR_CONCEPT = 1;
/**
 * A place the search names (the gazetteer) weighs more than its other concepts together: an offer
 * elsewhere answers none of a search for "ski in Wallis", an offer in Wallis without skiing some.
 */
export const PLACE_CONCEPT = 16;

/** What a search's words are beside its terms: its folded words and those too general to count fully. */
export interface QueryWords {
  /** The search folded and split (foldWords), its first QUERY_WORDS words. */
  words: string[];
  /** Words, and compound tails, whose every glossary concept is general (QueryExpansion.genericWords). */
  genericWords: readonly string[];
  /** Words that name a place (QueryExpansion.placeWords). */
  placeWords?: readonly string[];
  /** The other words of a place name of several words (QueryExpansion.placeNameWords). */
  placeNameWords?: readonly string[];
}

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
  /**
   * The weight of the concept the term covers: its query word's (PLACE_CONCEPT, MAJOR_CONCEPT,
   * MINOR_CONCEPT; 0 for a stop word or a pair), or 0 for a glossary or synonym word of a place
   * (the common word a place's name also is: "island" for "Island", Iceland, is not Iceland).
   */
  concept: number;
}

/** BM25's idf of a term held by `documents` of `offers` offers. */
export function idfOf(documents: number, offers: number): number {
  return Math.log(1 + (offers - documents + 0.5) / (documents + 0.5));
}

/**
 * The analysed terms with their idf, factor, frequency and concept weight, against a catalogue of
 * `offers` offers. Without `words`, every word that is not a stop word or frequent is major.
 */
export function queryTermsOf(analysed: AnalysedTerm[], offers: number, words?: QueryWords): QueryTerm[] {
  const terms = analysed.map((term) => {
    const idf = idfOf(term.documents, offers);
    return {
      ...term,
      idf,
      factor: term.weight * Math.pow(idf, IDF_EXPONENT),
      frequent: term.kind === 'stop' || term.documents > FREQUENT_WORD_SHARE * offers,
      concept: 0,
    };
  });
  const frequentWords = new Set(
    terms.filter((term) => term.frequent && !EXPANDED_KINDS.has(term.kind)).map((term) => term.word),
  );
  const weighed = terms.map((term) =>
    EXPANDED_KINDS.has(term.kind) && frequentWords.has(term.word) ? { ...term, frequent: true } : term,
  );
  const concepts = conceptWeightsOf(weighed, words);
  return weighed.map((term) => {
    const concept = concepts.get(term.word) ?? 0;
    const sense = concept === PLACE_CONCEPT && WORD_SENSE_KINDS.has(term.kind) ? 0 : concept;
    return { ...term, concept: sense };
  });
}

/** The kinds that expand a word's meaning as a common word, not as a place. */
const WORD_SENSE_KINDS = new Set(['glossary', 'synonym', 'narrower']);

/** Each query word's concept weight (PLACE_CONCEPT, MAJOR_CONCEPT, MINOR_CONCEPT or 0), by word number. */
function conceptWeightsOf(terms: Omit<QueryTerm, 'concept'>[], words?: QueryWords): Map<number, number> {
  const generic = new Set(words?.genericWords ?? []);
  const placeWords = new Set(words?.placeWords ?? []);
  const placeNameWords = new Set(words?.placeNameWords ?? []);
  const byWord = new Map<number, Omit<QueryTerm, 'concept'>[]>();
  for (const term of terms) {
    if (term.word >= PAIR_WORD) continue;
    byWord.set(term.word, [...(byWord.get(term.word) ?? []), term]);
  }
  const weights = new Map<number, number>();
  for (const [word, forms] of byWord) {
    const own = forms.filter((form) => OWN_KINDS.has(form.kind));
    const stop = own.length > 0 && own.every((form) => form.kind === 'stop');
    const token = word > 0 ? words?.words[word - 1] : undefined;
    if (token !== undefined && placeNameWords.has(token) && !placeWords.has(token)) {
      weights.set(word, 0);
      continue;
    }
    if (token !== undefined && placeWords.has(token)) {
      weights.set(word, PLACE_CONCEPT);
      continue;
    }
    const compound = word < 0 ? words?.words[-word - 1] : undefined;
    const general =
      (token !== undefined && generic.has(token)) ||
      // a compound's tail too general to count ("-ferien", "-reise": QueryExpansion.genericWords)
      (compound !== undefined && [...generic].some((tail) => tail.length >= 4 && compound.endsWith(tail))) ||
      (own.length ? own : forms).every((form) => form.frequent);
    weights.set(word, stop ? 0 : general ? MINOR_CONCEPT : MAJOR_CONCEPT);
  }
  // a search of stop words alone: each is a minor concept, so that its offers are still ranked
  if ([...weights.values()].every((weight) => weight === 0)) {
    for (const word of weights.keys()) weights.set(word, MINOR_CONCEPT);
  }
  return weights;
}

/**
 * What the scoring needs of the terms: a query word is a word number below 1000 (a pair's is
 * 1000 + i and covers nothing); a term selects offers unless it is frequent or a pair, and when
 * every word is frequent the rarest word (highest idf, then the lowest number) selects; `cov` is
 * the concept weight of the term's word (every form of a word covers it alike: its own, a typo, a
 * compound part, a translation), `coverable` the sum of the words' weights.
 */
export function textQueryOf(terms: QueryTerm[]): TextQuery {
  const isWord = (term: QueryTerm) => term.word < PAIR_WORD;
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
    const cov = isWord(term) ? term.concept : 0;
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
