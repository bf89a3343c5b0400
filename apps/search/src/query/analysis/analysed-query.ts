import type { AnalysisWork } from './analysis-budget';
import type { Language } from './languages';
import { QUERY_WORDS } from './query-limits';
import type { QueryWord } from './query-words';
import type { StemsOf } from './stems';
import { foldWords } from './tokenizer';

/**
 * A search read once (apps/search/README.md, "The text index in memory"): `readQueryText` folds
 * the search text, the one place that does; the analyzer (text-index/query-analysis.service.ts)
 * turns that reading into one AnalysedQuery per generation of the text index, which the text side,
 * the semantic side, the spelling neighbours and explain read instead of the string. The types of
 * what the analysis makes of a search live here, below the glossary, the gazetteer and the index
 * that fill them in, so that every layer reads the one value.
 */

/** The search text as read: the text as given and its folded words. */
export interface QueryText {
  /** Trimmed, never blank: what the embedding and the SQL semantic side read as it is. */
  readonly text: string;
  /** Folded and split (foldWords), its first QUERY_WORDS words; a word's position is its index + 1. */
  readonly words: readonly string[];
  /** Every folded word, past QUERY_WORDS too (the spelling neighbours read them all). */
  readonly allWords: readonly string[];
}

/** The search text folded and split once. */
export function readQueryText(text: string): QueryText {
  const allWords = foldWords(text);
  return { text, words: allWords.slice(0, QUERY_WORDS), allWords };
}

/**
 * Where an expanded word comes from: a glossary concept, an operator synonym, a part of a compound
 * the glossary split (the query's own word, in parts), another name of a place the search names
 * (`place`: the gazetteer), the name of a place inside it (`within`), or a word of a narrower
 * concept (`narrower`: "Wintersport" finding skiing and snowshoeing), or a word of a near concept
 * or of an item's theme (`related`: "Strandurlaub" finding "plage", "castle" finding culture).
 */
export type ExpansionKind = 'glossary' | 'synonym' | 'compound' | 'place' | 'within' | 'narrower' | 'related';

/** A word a search gains: `term` (folded, words separated by one space) counts for the query word `token`. */
export interface ExpandedTerm {
  token: string;
  term: string;
  kind: ExpansionKind;
  /** It counts for the second part of `token`, a compound of two concepts ("gletscher|wanderung"). */
  tail?: boolean;
}

/** What a search's words say of its language (glossary/language-guess.ts). */
export interface LanguageGuess {
  /** The language most of its words belong to; absent when none does more than another. */
  language?: Language;
  /** Each language's share of the words: a word of k languages adds 1/k to each. */
  scores: Record<Language, number>;
  /** The words that told, with their languages. */
  evidence: { word: string; languages: Language[] }[];
}

/** A point on the map: WGS 84 latitude and longitude in degrees (gazetteer.ts, GeoPoint). */
export interface MapPoint {
  readonly lat: number;
  readonly lon: number;
}

/**
 * A place a search names, resolved to what covers it (docs/decisions.md D-88b): the offers in it
 * (their places include `id` or one of `members`), those within `radiusKm` of its `point`, and
 * those of the regions containing it (`regions`) at a reduced weight.
 */
export interface ResolvedPlace {
  /** The query word the place counts for (PlaceMention.token) and its position (1-based). */
  readonly token: string;
  readonly position: number;
  /** The gazetteer's id, kind and the folded name the search gave. */
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  /** Where it is, when the data gives it. */
  readonly point?: MapPoint;
  /** How far from `point` an offer covers it (by its kind: PLACE_RADIUS_KM); 0: not by distance. */
  readonly radiusKm: number;
  /** The places containing it but the countries, nearest first (Zermatt: Mattertal, Upper Valais, Valais). */
  readonly regions: readonly string[];
  /** The member regions and towns that resolve a range, a sea, a coast … (none when the data gives none). */
  readonly members: readonly string[];
}

/** A place name a search holds and the gazetteer's places it leads to. */
export interface NamedPlace {
  /** The folded name found (words joined by one space; for a misspelt name, the name it was corrected to). */
  name: string;
  /** The ids of the places it names (places.tsv, countries.tsv), in the gazetteer's order. */
  ids: string[];
}

/** What the rules (glossary, synonyms, gazetteer) make of a search. */
export interface QueryExpansion {
  /** The search's words the rules know (not by a misspelling): not typos, nor unknown compounds. */
  knownWords: string[];
  terms: ExpandedTerm[];
  /**
   * The search's words whose every rule is too general to say what the traveller looks for
   * ("holiday", "reise", "week": glossary domain `general`): a minor concept of the search
   * (query-terms.ts, conceptWeightsOf).
   */
  genericWords?: string[];
  /**
   * The search's words whose every rule is a wish about who travels ("family", "kids": glossary
   * domain `audience`): a minor concept beside a word that says what the traveller does
   * (`activityWords`; query-terms.ts, conceptWeightsOf).
   */
  softWords?: string[];
  /** The search's words with a rule of what the traveller does (glossary domain `activity`); given with `softWords`. */
  activityWords?: string[];
  /** The search's words that name a place (the gazetteer): a place concept (query-terms.ts). */
  placeWords?: string[];
  /** The other words of a place name of several words ("lago dei quattro cantoni"): no concept of their own. */
  placeNameWords?: string[];
  /**
   * The places the search names, resolved (issue 62: D-88b): each place a name leads to, its point,
   * the regions containing it and its members, at most MAX_SEARCH_PLACES (analysis-budget.ts).
   */
  places?: ResolvedPlace[];
  /**
   * The places the search names, as the gazetteer resolved them (a misspelt name corrected among
   * them): what a search is read to be about, held so that a test over every judged search can
   * tell a word that became a place (test/place-resolutions.e2e-spec.ts).
   */
  namedPlaces?: NamedPlace[];
  /**
   * The search's function words (articles, prepositions, conjunctions of the four languages and
   * PostgreSQL's stop words: glossary/stop-words.ts), a place's words aside: they select no offer
   * and cover no concept (query-terms.ts), so "qqxvzk in wbrtlp" answers nothing.
   */
  functionWords?: string[];
  /**
   * The search's filler words ("plusieurs", "want", "along": glossary/filler-words.ts) that the
   * rules do not know and that name no place: a minor concept that selects no offer on its own.
   */
  fillerWords?: string[];
  /**
   * The words of a sentence that no rule knows and that a language's dictionary knows as a common
   * word (QueryExpansionService.plainWordsOf: "paar", "tage", "tranquillo"): a minor concept
   * (query-terms.ts); a name no dictionary knows ("masai") stays major. Absent in a short search.
   */
  plainWords?: string[];
  /**
   * The pieces of a hyphenated word a rule knows whole but its longest ("end" of "week-end":
   * QueryExpansionService.hyphenPiecesOf): no concept and no selection of their own.
   */
  hyphenPieces?: string[];
  /** The search's language, guessed from its words (language-guess.ts), with the words that told. */
  language?: LanguageGuess;
  /**
   * The work the search's analysis has done so far (analysis-budget.ts): the text side's analysis
   * goes on counting on it, so that the budget is the whole search's.
   */
  work?: AnalysisWork;
}

/** The kinds of match of a query term (the explain mode derives `stem` elsewhere). */
export type AnalysedKind =
  | 'exact'
  | 'stop'
  | 'typo'
  | 'phrase'
  | 'compound'
  | 'glossary'
  | 'synonym'
  | 'place'
  | 'within'
  | 'narrower'
  | 'related';

/** One term of a search's analysis (text-index/query-analyser.ts). */
export interface AnalysedTerm {
  /** The query word the term counts for: a word, a compound's tail or a pair (analysis/query-words.ts). */
  word: QueryWord;
  term: string;
  /** How many offers hold the term. */
  documents: number;
  /**
   * How many offers hold the term outside their categories (D-86: what the frequent-word rule
   * counts, FREQUENT_WORD_SHARE); absent: `documents`.
   */
  frequency?: number;
  /** A float4 value (Math.fround): its kind's (analysis/similarity.ts) or its expansion's weight. */
  weight: number;
  kind: AnalysedKind;
}

/** A query term with its BM25 weight (text-index/query-terms.ts): `factor` = weight × conceptIdf^IDF_EXPONENT. */
export interface QueryTerm extends AnalysedTerm {
  /** The term's own idf (which word is the rarest, when every word is frequent). */
  idf: number;
  /**
   * The document frequency the term is scored with (conceptDocumentsOf: an expansion never rarer
   * than its word's own forms), and its idf, the one its factor is computed with.
   */
  conceptDocuments: number;
  conceptIdf: number;
  factor: number;
  /**
   * A stop word, a term held outside their categories by more than FREQUENT_WORD_SHARE of the
   * offers (`frequency`, D-86), or an expansion of a
   * word whose own terms are frequent ("hotel" selecting nothing on its own, its "hébergement"
   * does not either).
   */
  frequent: boolean;
  /**
   * The weight of the concept the term covers: its query word's (PLACE_CONCEPT, MAJOR_CONCEPT,
   * MINOR_CONCEPT; 0 for a stop word or a pair), or 0 for a glossary or synonym word of a place
   * (the common word a place's name also is: "island" for "Island", Iceland, is not Iceland).
   */
  conceptWeight: number;
}

/**
 * A search analysed against one generation of the text index, immutable: its text and folded
 * words, the rules' reading of them (glossary concepts and their expansion, the places named or
 * misspelt, the guessed language), the words' stems, the short-search verdict, the text side's
 * query terms (typo and compound corrections among them), and in explain mode the words that
 * matched nothing.
 */
export interface AnalysedQuery extends QueryText {
  /** The glossary's, the synonyms' and the gazetteer's expansion, misspelt places corrected. */
  readonly expansion: Readonly<QueryExpansion>;
  /** The search's guessed language, or null. */
  readonly language: Language | null;
  /** PostgreSQL's stems of every token the analysis read (StemCache). */
  readonly stems: StemsOf;
  /** Whether the search is a short one (analysis/typos.ts, isShortSearch). */
  readonly shortSearch: boolean;
  /** The text side's query terms, weighed (text-index/query-terms.ts); none: no word found in any form. */
  readonly terms: readonly QueryTerm[];
  /**
   * Explain mode only (docs/decisions.md D-65): the words that matched no form
   * (QueryAnalyser.unmatchedWords), in query order; absent when explain is off.
   */
  readonly unmatchedWords?: readonly string[];
}
