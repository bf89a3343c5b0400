import { AnalysisWork, isAnalysable, MAX_SPLIT_WORDS } from './analysis-budget';
import type { StemsOf } from './stems';
import { characterLength } from './tokenizer';

/**
 * The compound rules of the analysis (apps/search/README.md, "Compounds"): one splitter
 * (bestSplit) that the text side and the glossary judge cuts with, the parts the text side may
 * look up, and a compound's known end for the language guess. A compound is split into real
 * words only: "Wintersport" is never "port".
 */

/** The shortest part of a compound split into two words (a German joint "s" aside). */
export const MIN_PART = 4;
/** The shortest part a compound may have when that part is a word of its own ("See|ufer"). */
export const SHORT_PART = 3;
/** The shortest word the text side splits: two parts of MIN_PART letters. */
export const COMPOUND_MIN_LENGTH = 2 * MIN_PART;
/** The weight of a compound's part, on the text side and as an expansion (`compound`). */
export const COMPOUND_WEIGHT = 0.8;

/** A cut the judge accepts: its score (the highest wins) and what it splits the word into. */
export interface JudgedSplit<T> {
  score: number;
  split: T;
}

/**
 * The compound splitter: each cut of `word` leaving a head and a tail of `minPart`+ symbols
 * (`unit`: characters, or UTF-16 units), left to right, judged by `judge` (undefined: no split);
 * the highest score wins, the first of equal ones. Each cut costs the word's length in `splits`
 * on `work`; the first cut the budget refuses ends the search.
 */
export function bestSplit<T>(
  word: string,
  options: {
    minPart: number;
    unit: 'character' | 'utf16';
    work: AnalysisWork;
    judge: (head: string, tail: string) => JudgedSplit<T> | undefined;
  },
): T | undefined {
  const { minPart, work, judge } = options;
  const symbols = options.unit === 'character' ? Array.from(word) : word;
  const length = symbols.length;
  const part = (from: number, to?: number) =>
    typeof symbols === 'string' ? symbols.slice(from, to) : symbols.slice(from, to).join('');
  let best: JudgedSplit<T> | undefined;
  for (let cut = minPart; cut <= length - minPart; cut++) {
    // a cut builds both parts and looks up their forms
    if (!work.spend(word, 'splits', length)) break;
    const judged = judge(part(0, cut), part(cut));
    if (judged && (!best || judged.score > best.score)) best = judged;
  }
  return best?.split;
}

/**
 * The text side's split of a word into real words: the cuts leaving two parts of MIN_PART+
 * letters, each a word the index `holds` as it is or as one of its French, German or English
 * stems (the head also without a German joint "s": "museums-"); of those, the cut whose longer
 * part is longest wins, then the first. The forms of each part the index holds, or undefined.
 */
export function splitIntoWords(
  token: string,
  stems: StemsOf,
  holds: (term: string) => boolean,
  work: AnalysisWork,
): { head: string[]; tail: string[] } | undefined {
  return bestSplit(token, {
    minPart: MIN_PART,
    unit: 'character',
    work,
    judge: (headPart, tailPart) => {
      const head = knownForms(headPart, stems, holds, true);
      if (!head) return undefined;
      const tail = knownForms(tailPart, stems, holds, false);
      if (!tail) return undefined;
      // a joint "s" is no part's length: "winter|sport" before "winter(s)|port", by its cut
      return { score: Math.max(head.length, tail.length), split: { head: head.forms, tail: tail.forms } };
    },
  });
}

/**
 * The forms of a compound's part the index holds (the part and its stems; a head also without a
 * joint "s", then its length without it), or undefined when it holds none.
 */
function knownForms(
  part: string,
  stems: StemsOf,
  holds: (term: string) => boolean,
  head: boolean,
): { forms: string[]; length: number } | undefined {
  const length = characterLength(part);
  const candidates: [string, number][] = [[part, length]];
  if (head && part.endsWith('s') && length > MIN_PART) candidates.push([part.slice(0, -1), length - 1]);
  for (const [candidate, candidateLength] of candidates) {
    const stemmed = stems(candidate);
    const forms: string[] = [];
    for (const form of [candidate, stemmed.fr, stemmed.de, stemmed.en]) {
      if (form && !forms.includes(form) && holds(form)) forms.push(form);
    }
    if (forms.length) return { forms, length: candidateLength };
  }
  return undefined;
}

/**
 * The words the text side may split (analysis-budget.ts): of COMPOUND_MIN_LENGTH+ letters and at
 * most MAX_ANALYSED_WORD_LENGTH, the first MAX_SPLIT_WORDS distinct ones.
 */
export function splitWordsOf(words: readonly string[]): Set<string> {
  const split = new Set<string>();
  for (const word of words) {
    if (split.size >= MAX_SPLIT_WORDS) break;
    if (characterLength(word) >= COMPOUND_MIN_LENGTH && isAnalysable(word)) split.add(word);
  }
  return split;
}

/**
 * The parts splitIntoWords may look up for a word (their stems are fetched before the analysis):
 * per cut, the head, the head without a joint "s", the tail.
 */
export function splitPartsOf(word: string): string[] {
  const parts: string[] = [];
  const characters = Array.from(word);
  for (let cut = MIN_PART; cut <= characters.length - MIN_PART; cut++) {
    const head = characters.slice(0, cut).join('');
    parts.push(head);
    if (head.endsWith('s') && cut > MIN_PART) parts.push(head.slice(0, -1));
    parts.push(characters.slice(cut).join(''));
  }
  return parts;
}

/**
 * The tails a compound may end with, leaving a head of MIN_PART+ and a tail of `minTail`+ letters
 * (UTF-16 units), longest first: each costs its length in `splits` on `work`, and the first the
 * budget refuses ends them.
 */
export function compoundTails(word: string, minTail: number, work: AnalysisWork): string[] {
  const tails: string[] = [];
  for (let cut = MIN_PART; cut <= word.length - minTail; cut++) {
    if (!work.spend(word, 'splits', word.length - cut)) break;
    tails.push(word.slice(cut));
  }
  return tails;
}

/**
 * A compound's known end: the longest part of MIN_PART+ letters (leaving SHORT_PART+ for the
 * other) that `known` answers for, the end before the start at equal lengths (`weinreise`:
 * "reise"). Each length tried costs both parts' letters in `lookups` on `work`; when the budget
 * refuses, nothing is found.
 */
export function knownEnd<T>(
  word: string,
  work: AnalysisWork,
  known: (part: string) => T | undefined,
): T | undefined {
  for (let length = word.length - SHORT_PART; length >= MIN_PART; length--) {
    // two parts built and looked up
    if (!work.spend(word, 'lookups', 2 * length)) return undefined;
    const found = known(word.slice(word.length - length)) ?? known(word.slice(0, length));
    if (found !== undefined) return found;
  }
  return undefined;
}
