import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadModule } from 'hunspell-asm';
import type { Hunspell, HunspellFactory } from 'hunspell-asm';
import { AnalysisWork, isAnalysable } from '../analysis/analysis-budget';
import { LANGUAGES } from '../analysis/languages';
import type { Language } from '../analysis/languages';
import { foldText } from '../analysis/tokenizer';

/**
 * The languages' own words (apps/search/README.md, "Real words are not typos"; docs/decisions.md
 * D-82): a word correct in a language the search may be in is never corrected into another word or
 * a place. Each language's Hunspell dictionary, read unmodified from its package at run time by
 * Hunspell itself (hunspell-asm: its WebAssembly build), created at the first search that needs it.
 */

/** The package of each language's dictionary (German's Swiss one, dictionary-de-ch, writes `ß` too). */
export const DICTIONARY_PACKAGES: Record<Language, string> = {
  fr: 'dictionary-fr',
  de: 'dictionary-de',
  en: 'dictionary-en-gb',
  it: 'dictionary-it',
};

/** The shortest word checked (the typo rules' shortest: analysis/typos.ts, SHORT_TYPO_LENGTH). */
export const REAL_WORD_MIN_LENGTH = 4;

/**
 * The most spellings of a folded word tried in one language: the word, then with one accent put
 * back, then with two, each letter by the accented letters of the dictionary (accentsOf). A search's
 * words are folded (`eglise`, `randonnee`, `gemutlich`: `é`, `ü` and `ae` written `a`); the real
 * words of the judged searches need one accent (`église`, `randonnée`, `gemütlich`, `città`), a few
 * two (`télécabine`); 48 bounds what a word that is no word costs (every spelling tried).
 */
export const MAX_SPELLINGS = 48;

/**
 * The accented letters put back: those of at least this share of a dictionary's words' letters
 * (French `é` 3 %, `à` 0.01 %; Italian `ì` 0.006 %; German `ß` 0.16 %; French `ñ` of a few foreign
 * words is left out).
 */
export const MIN_ACCENT_SHARE = 0.00005;

/** The most answers remembered (a word and a language: whether it is a word, and at which try). */
const MAX_REMEMBERED = 50_000;

/** One language's dictionary and the accented letters its words are written with. */
interface LanguageDictionary {
  hunspell: Hunspell;
  /** By folded letter, the accented letters that fold to it (`e`: `é`, `è`, `ê`, `ë`). */
  accents: Map<string, string[]>;
}

/** How long each language's dictionary took to create, in ms (for the log and the metrics). */
/**
 * How long Hunspell's WebAssembly may take to compile and start: its loader's own bound (3 s) was
 * passed on a loaded 2-core machine, failing the start; a CPU-throttled pod may be as slow.
 */
const HUNSPELL_START_TIMEOUT_MS = 60_000;

export interface DictionaryLoad {
  language: Language;
  milliseconds: number;
}

/**
 * Whether a search's folded word is a real word of some languages, by their Hunspell dictionaries.
 * `load` compiles Hunspell (at start); a language's dictionary is read at its first check. Each
 * spelling checked is counted on the search's AnalysisWork (`lookups`, the word's length), the
 * same for a remembered answer: a search always costs the same.
 */
export class RealWords {
  private readonly dictionaries = new Map<Language, LanguageDictionary>();
  /** By `language word`: the try that found the word (1, 2, …), or minus how many were tried. */
  private readonly remembered = new Map<string, number>();
  readonly loads: DictionaryLoad[] = [];

  private constructor(
    private readonly factory: HunspellFactory,
    private readonly filesOf: (language: Language) => { aff: Buffer; dic: Buffer },
  ) {}

  /** Hunspell compiled, no dictionary read yet (`filesOf`: each language's files, read when first needed). */
  static async load(filesOf = dictionaryFiles): Promise<RealWords> {
    return new RealWords(await loadModule({ timeout: HUNSPELL_START_TIMEOUT_MS }), filesOf);
  }

  /**
   * Reads `language`'s dictionary now if it is not read yet (the preload after start:
   * QueryExpansionService.preloadDictionaries); false when it was read already. A search that
   * needs a dictionary not read yet reads it itself (isWord).
   */
  preload(language: Language): boolean {
    if (this.dictionaries.has(language)) return false;
    this.dictionaryOf(language);
    return true;
  }

  /** The languages whose dictionary is read. */
  get loadedLanguages(): Language[] {
    return [...this.dictionaries.keys()];
  }

  /**
   * Whether `word` (folded) is a word of one of `languages` (all four when none is given), as typed
   * or with accents put back (spellingsOf); false for a word shorter than REAL_WORD_MIN_LENGTH, too
   * long to analyse, holding anything but letters (a hyphen aside: `bien-être`), or when `work`'s
   * budget stops the tries.
   */
  isWord(word: string, languages: readonly Language[] = LANGUAGES, work = new AnalysisWork()): boolean {
    return this.isIn(word, languages, work, false);
  }

  /**
   * Whether `word` (folded) is a common word of one of `languages` (all four when none is given):
   * as isWord, but a word the dictionary writes only with a capital (a name: `Masai`, `Paris`,
   * `Mara`) is not one, save in German, whose nouns are all written so (`Tage`, `Kindern`). What
   * a sentence's word no rule knows is asked (QueryExpansionService.plainWordsOf, D-54): a common
   * word is a minor concept, a name stays major.
   */
  isCommonWord(word: string, languages: readonly Language[] = LANGUAGES, work = new AnalysisWork()): boolean {
    return this.isIn(word, languages, work, true);
  }

  private isIn(word: string, languages: readonly Language[], work: AnalysisWork, common: boolean): boolean {
    if (word.length < REAL_WORD_MIN_LENGTH || !isAnalysable(word) || /[^\p{L}-]/u.test(word)) return false;
    for (const language of languages) {
      // German writes its nouns with a capital: there a common word may be written so
      const lowerOnly = common && language !== 'de';
      const key = `${lowerOnly ? 'c' : ''}${language} ${word}`;
      let answer = this.remembered.get(key);
      if (answer === undefined) {
        answer = this.tryIn(this.dictionaryOf(language), word, lowerOnly);
        if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
        this.remembered.set(key, answer);
      }
      // the tries counted as made, found or not
      const tries = Math.abs(answer);
      for (let i = 0; i < tries; i++) if (!work.spend(word, 'lookups', word.length)) return false;
      if (answer > 0) return true;
    }
    return false;
  }

  /** The try that found `word` in `dictionary` (1-based), or minus the number of tries. */
  private tryIn(dictionary: LanguageDictionary, word: string, lowerOnly = false): number {
    const spellings = spellingsOf(word, dictionary.accents);
    for (let i = 0; i < spellings.length; i++) {
      if (dictionary.hunspell.spell(lowerOnly ? spellings[i] : capitalised(spellings[i]))) return i + 1;
    }
    return -spellings.length;
  }

  private dictionaryOf(language: Language): LanguageDictionary {
    let dictionary = this.dictionaries.get(language);
    if (dictionary) return dictionary;
    const started = process.hrtime.bigint();
    const { aff, dic } = this.filesOf(language);
    const affPath = this.factory.mountBuffer(aff, `${language}.aff`);
    const dicPath = this.factory.mountBuffer(dic, `${language}.dic`);
    const hunspell = this.factory.create(affPath, dicPath);
    // Hunspell keeps what it read: the mounted files are no longer needed
    this.factory.unmount(affPath);
    this.factory.unmount(dicPath);
    dictionary = { hunspell, accents: withFoldedE(accentsOf(dic.toString('utf8'))) };
    this.dictionaries.set(language, dictionary);
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    this.loads.push({ language, milliseconds });
    return dictionary;
  }
}

/**
 * A language's `.aff` and `.dic` files, unmodified, from its package (DICTIONARY_PACKAGES): beside
 * the file the package exports, which is ESM and reads them itself; they are read here directly.
 */
export function dictionaryFiles(language: Language): { aff: Buffer; dic: Buffer } {
  const folder = dirname(require.resolve(DICTIONARY_PACKAGES[language]));
  return { aff: readFileSync(join(folder, 'index.aff')), dic: readFileSync(join(folder, 'index.dic')) };
}

/**
 * By folded form, the accented lower-case letters of a dictionary's words that fold to it (foldText:
 * `é` → `e`, `ü` → `u`, `ß` → `ss`, `œ` → `oe`), those of at least MIN_ACCENT_SHARE of its words'
 * letters (flags and morphology left out), most frequent first.
 */
export function accentsOf(dic: string): Map<string, string[]> {
  const counts = new Map<string, number>();
  let letters = 0;
  // each line's word, before its flags (`/`) and morphology (a tab or a space)
  for (const line of dic.split('\n')) {
    for (const character of line) {
      if (character === '/' || character === '\t' || character === ' ') break;
      if (character < 'a') continue;
      letters++;
      if (character > 'z') counts.set(character, (counts.get(character) ?? 0) + 1);
    }
  }
  const accents = new Map<string, string[]>();
  const frequent = [...counts].filter(([, count]) => count >= MIN_ACCENT_SHARE * letters);
  for (const [letter] of frequent.sort((a, b) => b[1] - a[1])) {
    if (letter.toLowerCase() !== letter) continue;
    const folded = foldText(letter);
    if (folded === letter || !/^[a-z]{1,2}$/.test(folded)) continue;
    accents.set(folded, [...(accents.get(folded) ?? []), letter]);
  }
  return accents;
}

/**
 * The letters foldText writes for `ae`, `oe` and `ue` (GERMAN_DIGRAPHS, in any language: English
 * `blue` is folded `blu`, Italian `aereo` `areo`), put back after the accents of the same letter.
 */
const FOLDED_E: ReadonlyArray<[string, string]> = [
  ['a', 'ae'],
  ['o', 'oe'],
  ['u', 'ue'],
];

/** `accents` with the `e` of FOLDED_E put back as one more accent of its letter. */
export function withFoldedE(accents: Map<string, string[]>): Map<string, string[]> {
  for (const [folded, written] of FOLDED_E) accents.set(folded, [...(accents.get(folded) ?? []), written]);
  return accents;
}

/** Where a folded form of `accents` is in a word: from `at`, `length` letters. */
interface Place {
  at: number;
  length: number;
  accented: readonly string[];
}

/**
 * A folded word's spellings, at most MAX_SPELLINGS: itself, then each with one accented letter put
 * back (`accents`: withFoldedE(accentsOf(…))), then with two, left to right.
 */
export function spellingsOf(word: string, accents: ReadonlyMap<string, readonly string[]>): string[] {
  const places: Place[] = [];
  for (let at = 0; at < word.length; at++) {
    for (const length of [1, 2]) {
      const accented = accents.get(word.slice(at, at + length));
      if (accented && at + length <= word.length) places.push({ at, length, accented });
    }
  }
  const spellings = [word];
  const put = (text: string, place: Place, letter: string) =>
    text.slice(0, place.at) + letter + text.slice(place.at + place.length);
  for (const place of places) {
    for (const letter of place.accented) {
      if (spellings.length >= MAX_SPELLINGS) return spellings;
      spellings.push(put(word, place, letter));
    }
  }
  for (let p = 0; p < places.length; p++) {
    for (let q = p + 1; q < places.length; q++) {
      const [first, second] = [places[p], places[q]];
      if (first.at + first.length > second.at) continue;
      for (const a of first.accented) {
        for (const b of second.accented) {
          if (spellings.length >= MAX_SPELLINGS) return spellings;
          // the second first: the first's place is unchanged by it
          spellings.push(put(put(word, second, b), first, a));
        }
      }
    }
  }
  return spellings;
}

/**
 * A spelling with a capital first letter: Hunspell accepts a word written in lower case with one
 * (a sentence's first word), and a German noun only with one (`Berge`, `Wanderungen`).
 */
function capitalised(spelling: string): string {
  return spelling.charAt(0).toUpperCase() + spelling.slice(1);
}
