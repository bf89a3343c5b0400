import { LANGUAGES } from '../analysis/languages';
import type { ConceptHierarchy, ConceptLinks, GlossaryConcept } from './glossary';
import { AnalysisWork, isAnalysable } from '../analysis/analysis-budget';
import { bestSplit, compoundTails, MIN_PART, SHORT_PART } from '../analysis/compounds';
import { TYPO_MIN_LENGTH, TypoCorrector } from '../analysis/typos';
import { isPhraseWithStopWord } from './stop-words';
import { isOtherEnding } from '../dictionary/other-ending';
import type { ExpandedTerm, ExpansionKind, QueryExpansion } from '../analysis/analysed-query';

export type { ExpandedTerm, ExpansionKind, QueryExpansion };

/** Query words that expand: `from` (folded phrases) expand to `to` (folded phrases). */
export interface ExpansionRule {
  kind: 'glossary' | 'synonym';
  from: string[];
  to: string[];
  /** Too general to expand a compound's part ("reise", "urlaub", "tour": glossary domain `general`). */
  generic?: boolean;
  /** A wish about who travels, not what they do ("family", "kids", "romantic": glossary domain `audience`). */
  soft?: boolean;
  /** What the traveller does ("ski", "Wandern", "vela": glossary domain `activity`). */
  activity?: boolean;
  /** The words of each narrower concept (concept-hierarchy.tsv), which the rule's words also find. */
  narrower?: string[][];
  /** The glossary concept's id. */
  concept?: string;
  /** The ids of the concepts it includes (concept-hierarchy.tsv, transitively). */
  includes?: string[];
  /**
   * The words of each near concept and theme it is linked to (concept-links.tsv), which the rule's
   * words also find, as a minor concept (kind `related`).
   */
  related?: string[][];
}

export const NO_EXPANSION: QueryExpansion = { knownWords: [], terms: [] };

/**
 * Each concept is a multi-way rule: any of its words expands to all the others, to the words
 * of the concepts it includes (`hierarchy`, transitively), never the reverse, and to the words of
 * the concepts it is linked to (`links`, not transitively: a castle reaches culture, not every
 * other item of culture). A phrase holding one
 * of `stopWords` (stop-words.ts: "tour in auto", "ski de fond"), or a stop word itself (German
 * "weg", French "ours"), finds its concept but is never expanded to: the text side would look a
 * phrase up by its pairs, and "tour in" matches every "tour in …".
 */
export function glossaryRules(
  concepts: GlossaryConcept[],
  hierarchy: ConceptHierarchy = new Map(),
  stopWords: ReadonlySet<string> = new Set(),
  links: ConceptLinks = new Map(),
): ExpansionRule[] {
  const allWordsOf = new Map(concepts.map((concept) => [concept.id, inLanguageTurns(concept)]));
  const wordsOf = new Map(
    [...allWordsOf].map(([id, words]) => [
      id,
      words.filter((word) => !stopWords.has(word) && !isPhraseWithStopWord(word, stopWords)),
    ]),
  );
  const includedBy = (id: string, seen: Set<string>): string[] =>
    (hierarchy.get(id) ?? []).flatMap((inside) => {
      if (seen.has(inside)) return [];
      seen.add(inside);
      return [inside, ...includedBy(inside, seen)];
    });
  const narrowerOf = (id: string, seen: Set<string>): string[][] =>
    (hierarchy.get(id) ?? []).flatMap((inside) => {
      if (seen.has(inside)) return [];
      seen.add(inside);
      return [wordsOf.get(inside) ?? [], ...narrowerOf(inside, seen)];
    });
  return concepts.map((concept) => {
    const words = wordsOf.get(concept.id) ?? [];
    const narrower = narrowerOf(concept.id, new Set())
      .map((list) => list.filter((word) => !words.includes(word)))
      .filter((list) => list.length > 0);
    const reached = new Set([...words, ...narrower.flat()]);
    const related = (links.get(concept.id) ?? [])
      .map((id) => (wordsOf.get(id) ?? []).filter((word) => !reached.has(word)))
      .filter((list) => list.length > 0);
    return {
      kind: 'glossary',
      from: allWordsOf.get(concept.id) ?? [],
      to: words,
      generic: concept.domain === 'general',
      ...(concept.domain === 'audience' ? { soft: true } : {}),
      ...(concept.domain === 'activity' ? { activity: true } : {}),
      ...(narrower.length ? { narrower } : {}),
      ...(related.length ? { related } : {}),
      concept: concept.id,
      includes: includedBy(concept.id, new Set()),
    };
  });
}

/**
 * A concept's words, each language's in turn (its first word in each language, then its second …):
 * the expansions' caps (maxTermsPerWord) then keep the first words of every language, however many
 * another language lists (the thesauri's forms come after each language's own).
 */
function inLanguageTurns(concept: GlossaryConcept): string[] {
  const words = new Set<string>();
  const longest = Math.max(...LANGUAGES.map((language) => concept.words[language].length));
  for (let i = 0; i < longest; i++) {
    for (const language of LANGUAGES) {
      const word = concept.words[language][i];
      if (word !== undefined) words.add(word);
    }
  }
  return [...words];
}

/**
 * The longest phrase of a search looked up as one (`settimana bianca`, `bord du lac`) when the
 * rules hold none longer; else the rules' longest ("andare in barca a vela").
 */
const MAX_PHRASE_WORDS = 3;
/** The longest phrase looked up as one whatever the rules hold (an operator synonym may be longer). */
const MAX_RULE_PHRASE_WORDS = 6;
/** Inflection endings tried off a word the rules do not hold ("wanderungen" → "wanderung"). */
const ENDINGS = ['en', 'er', 'es', 's', 'n', 'e', 'x'];
/** The shortest word left once an ending is taken off (and the shortest general tail of a compound). */
const MIN_STEM = 4;
/** The most words of the rules' a query word gains (the rules' words in turn). */
const TERMS_PER_WORD = 40;
/** The shortest word tried as a compound of two rule words (SHORT_PART + SHORT_PART). */
const COMPOUND_MIN_LENGTH = 2 * SHORT_PART;
/** The shortest word the rules hold that is also split (a mountain hike is a mountain and a hike). */
const KNOWN_COMPOUND_MIN_LENGTH = 8;
/** Both parts known beat one part known (then the longest part wins). */
const BOTH_PARTS_BONUS = 100;
/** The shortest known part that splits a compound alone ("museumsbesuche" → "museum"). */
const ONE_PART_MIN_LENGTH = 5;
/** Endings a German compound's first part drops ("Schlittel-plausch": Schlitteln; "Tauch-ferien": Tauchen). */
const HEAD_ENDINGS = ['n', 'en'];

/**
 * The rules a word found, the forms it was found as (never expanded to themselves), a compound's
 * parts; a compound of two concepts keeps its second part's rules and form apart.
 */
interface Found {
  forms: string[];
  rules: ExpansionRule[];
  parts?: string[];
  tailRules?: ExpansionRule[];
  tailPart?: string;
  misspelt?: boolean;
}

/**
 * Expands a search with the rules' words, in memory (built once at start). Each word of the
 * search (folded and split as the text side splits it) is looked up:
 * 1. as the start of a phrase of 2 words or more (3, or the rules' longest up to 6), and on its own; a
 *    phrase of two words or more that are not stop words is a multi-word concept, read as one
 *    before its words: its words keep their own meanings too ("wine" of "wine tasting" is wine),
 *    but not the narrower concepts of them, and never a misspelling ("sports nautiques": not
 *    "sports" as "ports", harbours); a word whose own meanings are all general is a general word
 *    of the search ("tour" of "food tour": `genericWords`); no shorter phrase inside it counts; the
 *    concept's words count for each of its words but the stop words (a phrase with one word but
 *    stop words, "am see", counts for its longest word, which keeps its own meanings);
 * 2. else without an inflection ending ("wanderungen", "walks");
 * 3. else (5+ letters) as a misspelling of a rule word within one edit, two for 9+ letters
 *    (analysis/typos.ts, TypoCorrector), unless it is a real word of a language the search may be
 *    in (query/dictionary/real-words.ts: `parks` is no misspelt `paris`);
 * 4. else (6+ letters) as a compound (analysis/compounds.ts, bestSplit) of two rule words of 4+
 *    letters (3 when both parts are rule words as they are: "seewanderung" → "see" +
 *    "wanderung"), or of one of 5+ letters and
 *    anything ("museumsbesuche" → "museum"); a first part may have dropped a German ending
 *    ("schlittelplausch" → "schlitteln"); the split with the longest known part wins; a compound
 *    a rule holds (8+ letters) also expands as its two parts ("bergwanderung" → "berg" +
 *    "wanderung").
 * Its expansions are the words of the rules found, but itself, at most `maxTermsPerWord` a word
 * (the rules' words in turn, so that the cap keeps some of each); a compound also gains its known
 * parts (kind `compound`; a part of a general concept such as "reise" or "urlaub" expands to
 * nothing); a compound of two meant parts is two concepts, its second part's words counting for
 * the word's tail (`tail`); and a word found in 1, 2 or 4 is a known word, which the text side neither corrects
 * nor splits itself.
 */
export class QueryExpander {
  private readonly rulesByWord = new Map<string, ExpansionRule[]>();
  /** The rules' single words' typo corrector (analysis/typos.ts). */
  private readonly typos: TypoCorrector;
  /** The most words of a phrase looked up as one. */
  private readonly maxPhraseWords: number;

  /**
   * `stopWords` (stop-words.ts) tell a multi-word concept (a phrase of two words or more that are
   * not stop words: "sports nautiques", "ski de fond") from a word with its little word ("am see",
   * "à vélo"): the first is read as one concept before its words (expand).
   */
  constructor(
    rules: ExpansionRule[],
    private readonly maxTermsPerWord = TERMS_PER_WORD,
    private readonly stopWords: ReadonlySet<string> = new Set(),
  ) {
    for (const rule of rules) {
      for (const word of rule.from) {
        const known = this.rulesByWord.get(word);
        if (known) known.push(rule);
        else this.rulesByWord.set(word, [rule]);
      }
    }
    this.typos = new TypoCorrector(this.rulesByWord.keys());
    let longestPhrase = MAX_PHRASE_WORDS;
    for (const word of this.rulesByWord.keys())
      longestPhrase = Math.max(longestPhrase, word.split(' ').length);
    this.maxPhraseWords = Math.min(longestPhrase, MAX_RULE_PHRASE_WORDS);
  }

  /** How many words and phrases the rules expand. */
  /** Whether a rule knows `phrase` (folded, words separated by one space) as one of its forms. */
  knows(phrase: string): boolean {
    return this.rulesByWord.has(phrase);
  }

  get size(): number {
    return this.rulesByWord.size;
  }

  /**
   * What the rules make of a search's folded words (QueryText.words: those the text side reads);
   * the misspellings and compounds tried are counted on `work` and stop at its budget (a word
   * longer than MAX_ANALYSED_WORD_LENGTH is looked up as it is and without an inflection ending
   * only). A word `isRealWord` says is a word of a language the search may be in is never taken
   * for a misspelling (query/dictionary/real-words.ts).
   */
  expand(
    words: readonly string[],
    work = new AnalysisWork(),
    isRealWord: (word: string) => boolean = () => false,
  ): QueryExpansion {
    const found = new Map<
      string,
      {
        rules: Set<ExpansionRule>;
        own: Set<string>;
        parts: Set<string>;
        tailRules: Set<ExpansionRule>;
        tailParts: Set<string>;
      }
    >();
    const knownWords = new Set<string>();
    const genericWords = new Set<string>();
    const softWords = new Set<string>();
    const activityWords = new Set<string>();
    const add = (token: string, match: Found) => {
      const entry = found.get(token) ?? {
        rules: new Set(),
        own: new Set([token]),
        parts: new Set(),
        tailRules: new Set(),
        tailParts: new Set(),
      };
      for (const form of match.forms) entry.own.add(form);
      for (const rule of match.rules) entry.rules.add(rule);
      for (const part of match.parts ?? []) entry.parts.add(part);
      for (const rule of match.tailRules ?? []) entry.tailRules.add(rule);
      if (match.tailPart) entry.tailParts.add(match.tailPart);
      found.set(token, entry);
    };
    // the positions of the words of a multi-word concept the search holds in order ("sports
    // nautiques", "marché de Noël"): its words are the concept, not each its own
    const inConcept = new Map<number, ExpansionRule[]>();
    words.forEach((word, i) => {
      // the phrases inside a multi-word concept are the concept's ("al mare" of "vacanze al mare")
      if (inConcept.has(i)) return;
      for (let length = this.maxPhraseWords; length >= 2; length--) {
        if (i + length > words.length) continue;
        const phrasePart = words.slice(i, i + length);
        const phrase = phrasePart.join(' ');
        const rules = this.rulesByWord.get(phrase);
        if (!rules) continue;
        const meant = phrasePart.filter((part) => !this.stopWords.has(part));
        if (meant.length < 2) {
          // a word with its little word: its expansions count for its longest word (the last of
          // equals): "am see" → "see"
          add(longest(phrasePart), { forms: [phrase], rules });
          continue;
        }
        // a multi-word concept's expansions count for each of its words but the little ones, so
        // that an offer in another language covers them all ("boat trip": Kreuzfahrt)
        for (const part of meant) add(part, { forms: [phrase], rules });
        for (let at = i; at < i + length; at++) inConcept.set(at, rules);
        for (const part of phrasePart) knownWords.add(part);
        break;
      }
    });
    // the own meanings of the words of a multi-word concept, which tell whether each is general
    const ownRules = new Map<string, ExpansionRule[]>();
    words.forEach((word, i) => {
      const concept = inConcept.get(i);
      let single = this.lookUp(word, work, isRealWord);
      if (concept && single && !single.misspelt) ownRules.set(word, single.rules);
      // a word of a multi-word concept keeps its own meanings ("wine" of "wine tasting" is wine,
      // "treno" of "viaggio in treno" a train: an offer holding only the word still covers it), but
      // never a misspelling ("sports nautiques": not "ports"); the concept's expansions count for
      // each of its words besides (measured on the judged sets: keeping only the related meanings
      // lost "Wein und Küche in Kyōto", "Wildlife of Masai Mara", "Tasmania sur les rails")
      if (concept && single) {
        // (without the narrower concepts of its own meanings: "randonnée" of "randonnée en
        // montagne" is hiking, not also long-distance trails)
        const kept = single.misspelt
          ? []
          : single.rules.map(({ narrower: _narrower, related: _related, ...rule }) => rule);
        single = kept.length ? { forms: single.forms, rules: kept } : undefined;
      }
      if (single) {
        add(word, single);
        if (!single.misspelt) knownWords.add(word);
      }
    });
    // a word whose every rule is general ("vacanze" alone is a holiday); a word of a multi-word
    // concept by its own meanings, not the concept's: "tour" of "food tour", "vacanze" of "vacanze
    // al mare" are general, the other word says what the traveller looks for (a word without a
    // meaning of its own, "road" of "road trip", is the concept's)
    for (const [token, { rules }] of found) {
      const own = ownRules.get(token) ?? [...rules];
      if (own.length && own.every((rule) => rule.generic)) genericWords.add(token);
      if (own.length && own.every((rule) => rule.soft)) softWords.add(token);
      if ([...rules].some((rule) => rule.activity)) activityWords.add(token);
    }
    // the tails a compound of the search may be split into that say nothing ("-ferien", "-reise")
    for (const word of words) {
      if (genericWords.has(word) || !isAnalysable(word)) continue;
      for (const tail of compoundTails(word, MIN_STEM, work))
        if (this.isGeneric(tail)) genericWords.add(tail);
    }
    const terms: ExpandedTerm[] = [];
    for (const [token, { rules, own, parts, tailRules, tailParts }] of found) {
      for (const part of parts) if (part !== token) terms.push({ token, term: part, kind: 'compound' });
      for (const part of tailParts) terms.push({ token, term: part, kind: 'compound', tail: true });
      for (const [term, kind] of this.interleaved(rules, own)) terms.push({ token, term, kind });
      for (const term of this.narrower(rules, own)) terms.push({ token, term, kind: 'narrower' });
      for (const term of this.related(rules, own)) terms.push({ token, term, kind: 'related' });
      for (const [term, kind] of this.interleaved(tailRules, own))
        terms.push({ token, term, kind, tail: true });
      for (const term of this.narrower(tailRules, own)) {
        terms.push({ token, term, kind: 'narrower', tail: true });
      }
      for (const term of this.related(tailRules, own))
        terms.push({ token, term, kind: 'related', tail: true });
    }
    return {
      knownWords: [...knownWords],
      terms,
      genericWords: [...genericWords],
      ...(softWords.size ? { softWords: [...softWords], activityWords: [...activityWords] } : {}),
    };
  }

  /** Whether every rule of a word (or its form without an inflection ending) is too general (`generic`). */
  isGeneric(word: string): boolean {
    const rules = this.inflected(word)?.rules ?? [];
    return rules.length > 0 && rules.every((rule) => rule.generic);
  }

  /** The rules' words but `own`, in turns (so that the cap keeps some of each), at most maxTermsPerWord. */
  private interleaved(rules: Set<ExpansionRule>, own: Set<string>): [string, ExpansionKind][] {
    const lists = [...rules].map((rule) =>
      rule.to.filter((term) => !own.has(term)).map((term) => ({ term, kind: rule.kind })),
    );
    const expanded = new Map<string, ExpansionKind>();
    for (let i = 0; lists.some((list) => i < list.length); i++) {
      for (const list of lists) {
        if (i < list.length && !expanded.has(list[i].term)) expanded.set(list[i].term, list[i].kind);
      }
    }
    return [...expanded].slice(0, this.maxTermsPerWord);
  }

  /** The words of the rules' narrower concepts but `own`, in turns (some of each), at most maxTermsPerWord. */
  private narrower(rules: Set<ExpansionRule>, own: Set<string>): string[] {
    return this.inTurns(
      [...rules].flatMap((rule) => rule.narrower ?? []),
      own,
    );
  }

  /** The words of the rules' linked concepts (near concepts, themes) but `own`, in turns, at most maxTermsPerWord. */
  private related(rules: Set<ExpansionRule>, own: Set<string>): string[] {
    return this.inTurns(
      [...rules].flatMap((rule) => rule.related ?? []),
      own,
    );
  }

  /** The words of `lists` but `own`, in turns (some of each), at most maxTermsPerWord. */
  private inTurns(lists: string[][], own: Set<string>): string[] {
    const words = new Set<string>();
    for (let i = 0; lists.some((list) => i < list.length); i++) {
      for (const list of lists) if (i < list.length && !own.has(list[i])) words.add(list[i]);
    }
    return [...words].slice(0, this.maxTermsPerWord);
  }

  private lookUp(word: string, work: AnalysisWork, isRealWord: (word: string) => boolean): Found | undefined {
    const inflected = this.inflected(word);
    // a word too long to be a real one is matched as it is (analysis-budget.ts)
    if (!isAnalysable(word)) return inflected;
    if (inflected) {
      // a compound the glossary holds also means its parts ("bergwanderung": a mountain hike, a mountain, a hike)
      const split = word.length >= KNOWN_COMPOUND_MIN_LENGTH ? this.compound(word, work, true) : undefined;
      if (!split) return inflected;
      return {
        forms: [...inflected.forms, ...split.forms],
        rules: [...inflected.rules, ...split.rules],
        parts: split.parts,
        tailRules: split.tailRules,
        tailPart: split.tailPart,
      };
    }
    if (word.length >= TYPO_MIN_LENGTH) {
      const misspelt = this.typos.closest(word, work);
      // the dictionaries asked only of a word that would be corrected
      if (misspelt && (isOtherEnding(word, misspelt.word) || !isRealWord(word)))
        return { forms: [misspelt.word], rules: this.rulesByWord.get(misspelt.word) ?? [], misspelt: true };
    }
    return word.length >= COMPOUND_MIN_LENGTH ? this.compound(word, work) : undefined;
  }

  private inflected(word: string): Found | undefined {
    const exact = this.rulesByWord.get(word);
    if (exact) return { forms: [word], rules: exact };
    for (const ending of ENDINGS) {
      if (!word.endsWith(ending) || word.length - ending.length < MIN_STEM) continue;
      const stem = word.slice(0, -ending.length);
      const rules = this.rulesByWord.get(stem);
      if (rules) return { forms: [stem], rules };
    }
    return undefined;
  }

  /** A word the rules hold as it is. */
  private exactly(word: string): Found | undefined {
    const rules = this.rulesByWord.get(word);
    return rules ? { forms: [word], rules } : undefined;
  }

  /** A compound's first part as a rule word once given back the ending it drops ("schlittel" → "schlitteln"). */
  private withEnding(head: string): Found | undefined {
    for (const ending of HEAD_ENDINGS) {
      const rules = this.rulesByWord.get(head + ending);
      if (rules) return { forms: [head + ending], rules };
    }
    return undefined;
  }

  /** The compound splitter (analysis/compounds.ts) judging each cut by the rules' words. */
  private compound(word: string, work: AnalysisWork, bothParts = false): Found | undefined {
    return bestSplit<Found>(word, {
      minPart: SHORT_PART,
      unit: 'utf16',
      work,
      judge: (head, tail) => {
        // a part of 3 letters only as a glossary word of its own, beside another known part ("see|ufer")
        const short = head.length < MIN_PART || tail.length < MIN_PART;
        // a German joint "s" between the parts ("museumsbesuche")
        // (not before a short word: "winter(s)|port" is no split of "wintersport")
        const jointS = head.endsWith('s') && head.length > MIN_STEM && tail.length > MIN_PART;
        // an "s" at the end of a first part is a joint, not a plural ending (never "winters|port")
        const headFound = short
          ? this.exactly(head)
          : (this.exactly(head) ??
            (jointS ? this.inflected(head.slice(0, -1)) : undefined) ??
            this.withEnding(head) ??
            (head.endsWith('s') ? undefined : this.inflected(head)));
        const tailFound = short ? this.exactly(tail) : this.inflected(tail);
        const known = [headFound, tailFound].filter((part) => part !== undefined);
        if (!known.length || ((bothParts || short) && known.length < 2)) return undefined;
        // both parts known beat one; then the split with the longest part
        const lengths = [headFound ? head.length : 0, tailFound ? tail.length : 0];
        const score = known.length === 2 ? BOTH_PARTS_BONUS + Math.max(...lengths) : Math.max(...lengths);
        if (known.length === 1 && score < ONE_PART_MIN_LENGTH) return undefined;
        // a general part ("-reise", "-urlaub") tells the split, not what the traveller looks for: a
        // split of general parts alone tells nothing (the text side splits the word itself)
        const meant = known.filter((part) => part.rules.some((rule) => !rule.generic));
        if (!meant.length) return undefined;
        const specific = (part: Found) => part.rules.filter((rule) => !rule.generic);
        // two meant parts are two concepts: the second counts apart ("gletscher|wanderung")
        const [first, second] = meant.length === 2 ? meant : [meant[0], undefined];
        const split: Found = {
          forms: known.flatMap((part) => part.forms),
          rules: first ? specific(first) : [],
          parts: first ? [first.forms[0]] : [],
          ...(second ? { tailRules: specific(second), tailPart: second.forms[0] } : {}),
        };
        return { score, split };
      },
    });
  }
}

function longest(words: string[]): string {
  return words.reduce((kept, word) => (word.length >= kept.length ? word : kept));
}
