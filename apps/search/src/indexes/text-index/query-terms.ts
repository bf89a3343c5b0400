import { byAnalysisOrder, sameWord, wordKey } from '../../query/analysis/query-words';
import type { QueryWord } from '../../query/analysis/query-words';
import {
  conceptDocumentsOf,
  factorOf,
  FREQUENT_WORD_SHARE,
  GENERAL_WORD_SHARE,
  idfOf,
  MAJOR_CONCEPT,
  languageFactorOf,
  MINOR_CONCEPT,
  PLACE_CONCEPT,
  STOP_WEIGHT,
} from '../../query/analysis/similarity';
import type { AnalysedTerm, QueryTerm, ResolvedPlace } from '../../query/analysis/analysed-query';
import { languageCodeOf } from './text-index';
import type { TextQuery } from './text-index';

export type { QueryTerm };

/**
 * How the text side weighs a search's terms (apps/search/README.md, "The text side"): each term's
 * BM25 factor, which terms select offers, and the concept weight of each query word
 * (analysis/similarity.ts).
 */

const EXPANDED_KINDS = new Set(['glossary', 'synonym', 'place', 'within', 'narrower', 'related']);
/** The kinds that are a query word's own forms (the others are gained by expansion or pair words). */
const OWN_KINDS = new Set(['exact', 'stop', 'typo', 'compound']);

/** What a search's words are beside its terms: its folded words and those too general to count fully. */
export interface QueryWords {
  /** The search's folded words, its first QUERY_WORDS (QueryText.words). */
  words: readonly string[];
  /** Words, and compound tails, whose every glossary concept is general (QueryExpansion.genericWords). */
  genericWords: readonly string[];
  /** Words that name a place (QueryExpansion.placeWords). */
  placeWords?: readonly string[];
  /** The other words of a place name of several words (QueryExpansion.placeNameWords). */
  placeNameWords?: readonly string[];
  /** The search's function words (QueryExpansion.functionWords): no concept, no selection. */
  functionWords?: readonly string[];
  /** The search's filler words (QueryExpansion.fillerWords): a minor concept that selects nothing on its own. */
  fillerWords?: readonly string[];
  /**
   * A sentence's common words no rule knows (QueryExpansion.plainWords): a minor concept, that
   * still selects.
   */
  plainWords?: readonly string[];
  /** The pieces of a hyphenated word known whole but its longest (QueryExpansion.hyphenPieces): no concept, no selection. */
  hyphenPieces?: readonly string[];
  /** Words that are a wish about who travels (QueryExpansion.softWords): minor beside an activity. */
  softWords?: readonly string[];
  /** Words that say what the traveller does (QueryExpansion.activityWords). */
  activityWords?: readonly string[];
  /** Whether the search is a short one (analysis/typos.ts, isShortSearch); absent: short. */
  shortSearch?: boolean;
}

/**
 * The analysed terms with their idf, factor, frequency and concept weight, against a catalogue of
 * `offers` offers. Without `words`, every word that is not a stop word or frequent is major.
 */
export function queryTermsOf(
  analysed: readonly AnalysedTerm[],
  offers: number,
  words?: QueryWords,
): QueryTerm[] {
  // each word's own document frequency: the fewest offers holding one of its own forms; and the
  // fewest holding one outside their categories (D-86)
  const wordDocuments = new Map<string, number>();
  const wordFrequencies = new Map<string, number>();
  for (const term of analysed) {
    if (!OWN_KINDS.has(term.kind)) continue;
    const key = wordKey(term.word);
    wordDocuments.set(key, Math.min(wordDocuments.get(key) ?? Infinity, term.documents));
    wordFrequencies.set(key, Math.min(wordFrequencies.get(key) ?? Infinity, frequencyOf(term)));
  }
  // a frequent word (held by more than FREQUENT_WORD_SHARE of the offers outside their categories:
  // "family", "road" in the generated catalogue) lends its idf to no expansion: its own forms say
  // little, and a rarer translation ("Familienferien", "Rundreise") says the concept; a theme word
  // its offers' categories hold ("Wandern") lends its idf (D-86)
  const wordDocumentsOf = (key: string): number | undefined => {
    const frequency = wordFrequencies.get(key);
    return frequency !== undefined && frequency > FREQUENT_WORD_SHARE * offers
      ? undefined
      : wordDocuments.get(key);
  };
  const functionWordKeys = wordKeysOf(analysed, words, words?.functionWords);
  const fillerKeys = wordKeysOf(analysed, words, words?.fillerWords);
  const pieceKeys = wordKeysOf(analysed, words, words?.hyphenPieces);
  const terms = analysed.map((term) => {
    const own = OWN_KINDS.has(term.kind);
    // a function word ("in", "nei", "sans") weighs as a stop word and never selects
    const functionWord = functionWordKeys.has(wordKey(term.word));
    const conceptDocuments = own
      ? term.documents
      : conceptDocumentsOf(term.documents, wordDocumentsOf(wordKey(term.word)));
    const conceptIdf = idfOf(conceptDocuments, offers);
    return {
      ...term,
      idf: idfOf(term.documents, offers),
      conceptDocuments,
      conceptIdf,
      factor: factorOf(functionWord ? Math.min(term.weight, STOP_WEIGHT) : term.weight, conceptIdf),
      frequent:
        functionWord ||
        fillerKeys.has(wordKey(term.word)) ||
        pieceKeys.has(wordKey(term.word)) ||
        term.kind === 'stop' ||
        frequencyOf(term) > FREQUENT_WORD_SHARE * offers,
      conceptWeight: 0,
    };
  });
  const frequentWords = new Set(
    terms.filter((term) => term.frequent && !EXPANDED_KINDS.has(term.kind)).map((term) => wordKey(term.word)),
  );
  const weighed = terms.map((term) =>
    EXPANDED_KINDS.has(term.kind) && frequentWords.has(wordKey(term.word))
      ? { ...term, frequent: true }
      : term,
  );
  const generalWords = new Set<string>();
  const conceptWeights = conceptWeightsOf(weighed, words, generalWords);
  // what a word's common sense covers: its concept weight, none for a place's (conceptWeight)
  const senseWeightOf = (key: string): number => {
    const weight = conceptWeights.get(key) ?? 0;
    return weight === PLACE_CONCEPT ? 0 : weight;
  };
  // an expansion counted for several words (a multi-word concept's, query-expander.ts) covers each
  // of them but scores once, for the heaviest of them (then the first): "Panoramazug" for "viaggio
  // in treno" is one match, not two ahead of an offer that holds "viaggio" and the place; and
  // "Strandurlaub" for "vacances à la plage" scores as the beach ("plage"), not as the general
  // "vacances" (GENERAL_WORD_SHARE)
  const scoredFor = new Map<string, string>();
  const shared = (term: AnalysedTerm) => WORD_SENSE_KINDS.has(term.kind) && term.word.kind !== 'pair';
  for (const term of weighed) {
    if (!shared(term)) continue;
    const key = wordKey(term.word);
    const kept = scoredFor.get(term.term);
    if (kept === undefined || senseWeightOf(key) > senseWeightOf(kept)) scoredFor.set(term.term, key);
  }
  // a general word ("tour" of "food tour", "holiday", "Reise") scores a share of its forms' parts
  // beside a word that says what the traveller looks for, as it covers a share (MINOR_CONCEPT)
  const scoresGeneral = [...conceptWeights.values()].some((weight) => weight > MINOR_CONCEPT);
  return weighed.map((term) => {
    const key = wordKey(term.word);
    const weight = conceptWeights.get(key) ?? 0;
    const sense =
      weight === PLACE_CONCEPT && WORD_SENSE_KINDS.has(term.kind)
        ? 0
        : MINOR_KINDS.has(term.kind)
          ? minorSenseOf(weight)
          : weight;
    // a related word that covers nothing of its word scores nothing either (minorSenseOf)
    const factor =
      (shared(term) && scoredFor.get(term.term) !== key) || (MINOR_KINDS.has(term.kind) && sense === 0)
        ? 0
        : scoresGeneral && generalWords.has(key)
          ? term.factor * GENERAL_WORD_SHARE
          : term.factor;
    return { ...term, factor, conceptWeight: sense };
  });
}

/**
 * How many offers hold the term outside their categories (D-86): what the frequent-word rule
 * counts, while the idf counts every offer holding it.
 */
function frequencyOf(term: AnalysedTerm): number {
  return term.frequency ?? term.documents;
}

/** The kinds that expand a word's meaning as a common word, not as a place. */
const WORD_SENSE_KINDS = new Set(['glossary', 'synonym', 'narrower', 'related']);
/**
 * The kinds that cover their word as a minor concept whatever it weighs: a near concept's or an
 * item's theme's word (`related`: "castle" finding a culture offer) answers part of the search, so
 * that the offers naming its own concept rank first.
 */
const MINOR_KINDS = new Set(['related']);

/**
 * What a related word covers of its query word: a minor concept of a word that says what the
 * traveller looks for, nothing (and it scores nothing) of a word that is itself minor (general or frequent: "vacances" of
 * "vacances à la plage", which the beach holiday's link to the beach would otherwise cover whole,
 * so that any beach offer covered as much as a beach holiday; measured on the default judged set).
 */
function minorSenseOf(weight: number): number {
  return weight > MINOR_CONCEPT ? MINOR_CONCEPT : 0;
}

/**
 * Each query word's concept weight (PLACE_CONCEPT, MAJOR_CONCEPT, MINOR_CONCEPT or 0), by wordKey;
 * the words minor for being general (not merely frequent) are added to `generalWords`.
 */
function conceptWeightsOf(
  terms: Omit<QueryTerm, 'conceptWeight'>[],
  words?: QueryWords,
  generalWords?: Set<string>,
): Map<string, number> {
  const generic = new Set(words?.genericWords ?? []);
  const placeWords = new Set(words?.placeWords ?? []);
  const placeNameWords = new Set(words?.placeNameWords ?? []);
  const functionWords = new Set(words?.functionWords ?? []);
  const hyphenPieces = new Set(words?.hyphenPieces ?? []);
  const softWords = new Set(words?.softWords ?? []);
  const plainWords = new Set(words?.plainWords ?? []);
  const softKeys = new Set<string>();
  const activityWords = new Set(words?.activityWords ?? []);
  const activityKeys = new Set<string>();
  const byWord = new Map<string, { word: QueryWord; forms: Omit<QueryTerm, 'conceptWeight'>[] }>();
  for (const term of terms) {
    if (term.word.kind === 'pair') continue;
    const key = wordKey(term.word);
    const entry = byWord.get(key);
    if (entry) entry.forms.push(term);
    else byWord.set(key, { word: term.word, forms: [term] });
  }
  const weights = new Map<string, number>();
  for (const [key, { word, forms }] of byWord) {
    const own = forms.filter((form) => OWN_KINDS.has(form.kind));
    const stop = own.length > 0 && own.every((form) => form.kind === 'stop');
    const token = word.kind === 'word' ? words?.words[word.position - 1] : undefined;
    if (token !== undefined && placeNameWords.has(token) && !placeWords.has(token)) {
      weights.set(key, 0);
      continue;
    }
    if (token !== undefined && placeWords.has(token)) {
      weights.set(key, PLACE_CONCEPT);
      continue;
    }
    if (token !== undefined && (functionWords.has(token) || hyphenPieces.has(token))) {
      weights.set(key, 0);
      continue;
    }
    const compound = word.kind === 'tail' ? words?.words[word.position - 1] : undefined;
    if (token !== undefined && softWords.has(token)) softKeys.add(key);
    if (token !== undefined && activityWords.has(token) && !softWords.has(token)) activityKeys.add(key);
    // too general to say what the traveller looks for (the glossary's `general` concepts)
    const saysNothing =
      (token !== undefined && generic.has(token)) ||
      // a compound's tail too general to count ("-ferien", "-reise": QueryExpansion.genericWords)
      (compound !== undefined && [...generic].some((tail) => tail.length >= 4 && compound.endsWith(tail)));
    // in a sentence, a word found only by a typo correction is a guess: a minor concept
    // (analysis/typos.ts, isShortSearch: "faire" is no "fire")
    const guessed =
      words?.shortSearch === false && own.length > 0 && own.every((form) => form.kind === 'typo');
    // in a sentence, a common word no rule knows ("paar", "tranquillo") says less than those the
    // rules know (QueryExpansion.plainWords; a name no dictionary knows, "masai", stays major)
    const plain = token !== undefined && plainWords.has(token);
    const general =
      saysNothing || guessed || plain || (own.length ? own : forms).every((form) => form.frequent);
    weights.set(key, stop ? 0 : general ? MINOR_CONCEPT : MAJOR_CONCEPT);
    if (!stop && saysNothing) generalWords?.add(key);
  }
  // a wish about who travels ("family", "kids") is minor beside what they do ("ski", "Wandern"); beside
  // a landscape ("family holiday in the mountains") it is half of what the traveller looks for
  if ([...activityKeys].some((key) => weights.get(key) === MAJOR_CONCEPT)) {
    for (const key of softKeys) if (weights.get(key) === MAJOR_CONCEPT) weights.set(key, MINOR_CONCEPT);
  }
  return weights;
}

/**
 * The query words (wordKey) whose token is one of `listed` (QueryWords.functionWords,
 * fillerWords): a word, not a compound's tail or a pair, that names no place.
 */
function wordKeysOf(
  analysed: readonly AnalysedTerm[],
  words: QueryWords | undefined,
  listed: readonly string[] | undefined,
): Set<string> {
  const keys = new Set<string>();
  if (!listed?.length) return keys;
  const tokens = new Set(listed);
  const placeWords = new Set(words?.placeWords ?? []);
  for (const { word } of analysed) {
    if (word.kind !== 'word') continue;
    const token = words?.words[word.position - 1];
    if (token !== undefined && tokens.has(token) && !placeWords.has(token)) keys.add(wordKey(word));
  }
  return keys;
}

/**
 * Whether a search's terms hold a content word's: a term of a word that covers a concept. A
 * search whose only terms are its function words' (a stop word, "nei") matches nothing: no offer
 * is selected, and the semantic side keeps only its close neighbours (memory-listing.ts,
 * semanticFloorOf).
 */
export function holdsContentWord(terms: readonly QueryTerm[]): boolean {
  return terms.some((term) => term.conceptWeight > 0);
}

/**
 * What the scoring needs of the terms: a term selects offers unless it is frequent or a pair's,
 * and when every content word is frequent the rarest of them (highest idf, then the first in
 * analysis order: byAnalysisOrder) selects (a function word never: holdsContentWord); `conceptWeight` is the concept weight of the term's word (every form
 * of a word covers it alike: its own, a typo, a compound part, a translation; a pair covers
 * nothing), `coverable` the sum of the words' highest.
 */
export function textQueryOf(
  terms: readonly QueryTerm[],
  preference?: LanguagePreference,
  places?: readonly ResolvedPlace[],
): TextQuery {
  const isWord = (term: QueryTerm) => term.word.kind !== 'pair';
  let fallbackWord: QueryWord | undefined;
  if (!terms.some((term) => isWord(term) && !term.frequent)) {
    let rarest: QueryTerm | undefined;
    for (const term of terms) {
      if (!isWord(term) || term.conceptWeight === 0) continue;
      if (
        !rarest ||
        term.idf > rarest.idf ||
        (term.idf === rarest.idf && byAnalysisOrder(term.word, rarest.word) < 0)
      )
        rarest = term;
    }
    fallbackWord = rarest?.word;
  }
  const highest = new Map<string, number>();
  const scored = terms.map((term) => {
    const key = wordKey(term.word);
    highest.set(key, Math.max(highest.get(key) ?? 0, term.conceptWeight));
    return {
      word: term.word,
      term: term.term,
      factor: term.factor,
      conceptWeight: term.conceptWeight,
      placeOnly: term.conceptWeight === PLACE_CONCEPT,
      selects:
        (isWord(term) && !term.frequent) || (fallbackWord !== undefined && sameWord(term.word, fallbackWord)),
    };
  });
  let coverable = 0;
  for (const weight of highest.values()) coverable += weight;
  const code = languageCodeOf(preference?.language);
  const factor = languageFactorOf(true, preference?.strength ?? 0);
  const query: TextQuery =
    code > 0 && factor !== 1
      ? { terms: scored, coverable, language: { code, factor } }
      : { terms: scored, coverable };
  return places?.length ? { ...query, ...placeQueriesOf(places, highest) } : query;
}

/**
 * The places a search names as the text side covers them by where the offers are (D-88b), and the
 * concept weight of those of its words no term covers (`highest`: each word's, by wordKey).
 */
function placeQueriesOf(
  places: readonly ResolvedPlace[],
  highest: ReadonlyMap<string, number>,
): Pick<TextQuery, 'places' | 'placeCoverable'> {
  const uncovered = new Set<string>();
  const queries = places.map((place) => {
    const word = { kind: 'word', position: place.position } as const;
    const key = wordKey(word);
    if (!highest.has(key)) uncovered.add(key);
    return { word, conceptWeight: PLACE_CONCEPT, place };
  });
  return { places: queries, placeCoverable: uncovered.size * PLACE_CONCEPT };
}

/**
 * The search's guessed language (AnalysedQuery.language; absent or null: none guessed) and how
 * much an offer written in it gains (SEARCH_LANGUAGE_PREFERENCE; 0: nothing).
 */
export interface LanguagePreference {
  language?: string | null;
  strength: number;
}
