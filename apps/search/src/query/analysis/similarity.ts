import { COMPOUND_WEIGHT } from './compounds';

/**
 * The text side's score, its constants and its formula in one place (apps/search/README.md, "The
 * text side"; like Lucene's Similarity):
 *
 *     score(offer)  = Σ over the query words the offer holds of part(word) / SCALE × coverage
 *     part(word)    = the highest part(form) among the word's forms the offer holds (its best form)
 *     part(form)    = round(factor × impact × SCALE), half to even
 *     factor        = weight of the form's kind of match × idf ^ IDF_EXPONENT, × GENERAL_WORD_SHARE
 *                     for a general word beside a heavier one; 0 for an expansion counted for
 *                     several words of a multi-word concept but the heaviest (query-terms.ts)
 *     idf           = idfOf(df, offers), df = conceptDocumentsOf(the form's, the word's own): a form
 *                     gained by expansion (a translation, a synonym, another name) is never rarer
 *                     than the word itself, as Lucene's SynonymQuery scores a word and its synonyms
 *                     as one term (unless the word is frequent: FREQUENT_WORD_SHARE)
 *     impact        = BM25's term-frequency part of the form in the offer (FIELD_BOOSTS, BM25_K1,
 *                     BM25_B), written by the reindex (`search_postings.impact`)
 *     coverage      = min(1, covered / coverable)
 *     covered       = Σ over the query words the offer holds of the highest concept weight among
 *                     the word's forms it holds (a place's forms only where the offer is: PLACE_FIELDS);
 *                     coverable: the same over every query word
 *     preferred     = score × (1 + strength) for an offer written in the search's guessed language
 *                     (languageFactorOf), applied after the coverage: offers of equal coverage only
 *                     trade places, since the ranking is by covered weight first
 *
 * Parts are integers (SCALE), so that a score's bits do not depend on the order its parts are
 * summed in. The in-memory index (text-index.ts) scores with these functions, and records what it
 * adds on request (ScoreRecorder: the explain mode).
 */

/** How much an occurrence of a lexeme counts, by the `search_vector` weight of its field. */
export const FIELD_BOOSTS = {
  /** The name. */
  A: 3.0,
  /** The destination and the first category. */
  B: 1.5,
  /** The other categories. */
  C: 0.75,
  /** The description. */
  D: 1.0,
} as const;
/** BM25's term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25's length normalisation. */
export const BM25_B = 0.75;

/** Rarity weighs more than in plain BM25 (measured: docs/benchmarks.md, part 3). */
export const IDF_EXPONENT = 1.5;
/** A term held by more than this share of the offers does not select offers on its own. */
export const FREQUENT_WORD_SHARE = 0.1;

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
 * The share of its forms' parts a general word scores (query-terms.ts: a minor concept for being
 * general, "tour" of "food tour", "holiday", "Reise", not merely frequent) beside a word of the
 * search that weighs more: as much as it covers, a quarter of a major concept. A general word's
 * rarity in one language of the catalogue (English "tour" in 33 of 2,000 offers) made "Self-drive
 * tour of Helsinki", which mentions food, outscore "Genussreise" and "Wein und Küche" for "food
 * tour" (measured on the default judged set). A frequent word is not cut: its idf
 * already is low. A search of general words alone scores them whole.
 */
export const GENERAL_WORD_SHARE = MINOR_CONCEPT / MAJOR_CONCEPT;

/**
 * A place the search names (the gazetteer) weighs more than its other concepts together: an offer
 * elsewhere answers none of a search for "ski in Wallis", an offer in Wallis without skiing some.
 */
export const PLACE_CONCEPT = 16;
/** What a place the search names weighs where an offer only mentions it (PLACE_FIELDS). */
export const PLACE_MENTION_CONCEPT = MINOR_CONCEPT;

/**
 * The weight of each kind of match of a query word's own forms (the expansions' weights are
 * settings: ExpansionWeights), float4 values as the index's scores were first computed in SQL.
 */
export const STOP_WEIGHT = Math.fround(0.1);
export const EXACT_WEIGHT = Math.fround(1);
export const ONE_EDIT_WEIGHT = Math.fround(0.6);
export const TWO_EDITS_WEIGHT = Math.fround(0.4);
export const SPLIT_WEIGHT = Math.fround(COMPOUND_WEIGHT);
export const PHRASE_WEIGHT = Math.fround(0.5);

/**
 * The `search_vector` fields a posting's term occurs in (`search_postings.fields`, a bit per weight
 * A–D; migration AddPostingFields), and those that say where an offer is: its name (A) and its
 * destination and theme (B). A place the search names (PLACE_CONCEPT) is covered only by a form
 * the offer holds there; named only in the description or another category ("départ de Genève,
 * Bâle ou Zurich") the form still scores as an ordinary word and counts as a minor concept
 * (PLACE_MENTION_CONCEPT), below any real concept of the search (`Zurich randonnée`
 * answered beach offers that merely depart from Zurich; measured, apps/search/README.md "Concept
 * coverage"). A minor concept rather than none: a search of the place alone still ranks the
 * offers that only mention it by their score, after those that are there, rather than at 0.
 */
export const FIELD_BITS = { A: 1, B: 2, C: 4, D: 8 } as const;
export const PLACE_FIELDS = FIELD_BITS.A | FIELD_BITS.B;
/**
 * A posting's bit beside FIELD_BITS: the term occurs in the offer's destination (weight B holds
 * the destination and the first category, told apart by the destination's own lexemes; migration
 * AddCategoryFreeFrequency).
 */
export const DESTINATION_BIT = 16;
/**
 * Where a term occurs outside the offer's categories: its name (A), its destination, its
 * description (D). An offer holding a term only through its categories (`Skiferien`, `Walking &
 * hiking`: named in the offer's language) does not count towards the term's frequency
 * (frequencyOf, D-86).
 */
export const OUTSIDE_CATEGORIES = FIELD_BITS.A | DESTINATION_BIT | FIELD_BITS.D;

/**
 * Whether a posting whose fields are `fields` counts towards its term's frequency (D-86): the
 * term occurs outside the offer's categories (OUTSIDE_CATEGORIES; ALL_FIELDS when unknown).
 */
export function countsTowardsFrequency(fields: number): boolean {
  return (fields & OUTSIDE_CATEGORIES) !== 0;
}

/**
 * What an occurrence of a compound counts as for each of its parts, written by the reindex (D-86):
 * its field's boost times this, the weight of a compound's part on the query side (COMPOUND_WEIGHT),
 * so that an offer holding "Tageswanderung" answers "Wanderung" below one holding the word itself
 * in the same field.
 */
export const INDEXED_PART_SHARE = COMPOUND_WEIGHT;
/** Postings whose fields are unknown (written by a release before AddPostingFields): every field. */
export const ALL_FIELDS = 0xff;

/**
 * The document frequency a query word's form is scored with (D-53): a form gained by expansion
 * (a translation, a synonym, another name of a place, a narrower concept's word) counts as held by
 * at least as many offers as the word itself (`word`: the fewest offers holding one of the word's
 * own forms, undefined when the index holds none), as Lucene's SynonymQuery takes a word and its
 * synonyms as one term of the highest docFreq. A form's part then differs from the word's only by
 * its kind's weight (1 the word, 0.9 a translation …) and its term frequency: a rarer translation
 * can no longer outscore the word itself on offers of the same shape (`randonnée` answered six
 * English and German walking offers before 115 French ones that say "randonnée"). Measured on
 * both judged sets against the plain maximum over all the forms (a word, its stems in three
 * languages and up to 12 translations): that one took the idf of the commonest form, often a stem
 * or a translation far more common than the word ("boat trip" lost its boats to "road trip").
 * The word's own forms (its stems, typo corrections, compound parts) keep their own document
 * frequency: the best of them counts, as before.
 */
export function conceptDocumentsOf(form: number, word: number | undefined): number {
  return word === undefined ? form : Math.max(form, word);
}

/**
 * The search's language decides among offers of equal coverage (D-76): an offer written in
 * the language the search is guessed to be in (QueryExpansion.language) scores `1 + strength`
 * times as much; 1 when the offer's language is another, unknown, or no language was guessed
 * (SEARCH_LANGUAGE_PREFERENCE; 0 turns it off).
 */
export function languageFactorOf(preferred: boolean, strength: number): number {
  return preferred ? 1 + strength : 1;
}

/** Parts are integers: the score's terms times SCALE, rounded (to 1e-6). */
export const SCALE = 1_000_000;

/** PostgreSQL's `round(float8)`: to the nearest integer, halves to even (C's `rint`). */
export function roundHalfEven(value: number): number {
  const rounded = Math.round(value);
  return rounded - value === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}

/** BM25's idf of a term held by `documents` of `offers` offers. */
export function idfOf(documents: number, offers: number): number {
  return Math.log(1 + (offers - documents + 0.5) / (documents + 0.5));
}

/** A form's factor: its kind's weight times its idf to the power IDF_EXPONENT. */
export function factorOf(weight: number, idf: number): number {
  return weight * Math.pow(idf, IDF_EXPONENT);
}

/** A form's part of an offer's score (an integer): its factor times its posting's impact, scaled. */
export function partOf(factor: number, impact: number): number {
  return roundHalfEven(factor * impact * SCALE);
}

/** The share of the query's concept weight an offer covers, at most 1 (NaN when none is coverable). */
export function coverageOf(covered: number, coverable: number): number {
  return Math.min(1, covered / (coverable > 0 ? coverable : NaN));
}

/** An offer's score: the sum of its words' best parts, unscaled, times its coverage. */
export function scoreOf(partSum: number, coverage: number): number {
  return (partSum / SCALE) * coverage;
}

/** A form's share of the score when it counts (its word's best form in an offer the query selects). */
export function contributionOf(part: number, coverage: number): number {
  return (part / SCALE) * coverage;
}

/**
 * What a scoring adds up, recorded on request (the explain mode, as Lucene's Weight.explain): the
 * scorer calls it for the offers asked, with its own figures.
 */
export interface ScoreRecorder {
  /**
   * Offer `ordinal` holds the query's term number `term`, whose part is `part`, in the fields
   * `fields` (FIELD_BITS; ALL_FIELDS when unknown).
   */
  part(ordinal: number, term: number, part: number, fields: number): void;
  /** Offer `ordinal`'s coverage, score and the language factor its score was multiplied by. */
  offer(ordinal: number, coverage: number, score: number, languageFactor: number): void;
}
