import { readFileSync } from 'node:fs';
import { sourceFilePath } from '../../common/source-files';
import { LANGUAGES } from '../analysis/languages';
import type { Language } from '../analysis/languages';
import { AnalysisWork } from '../analysis/analysis-budget';
import { foldWords } from '../analysis/tokenizer';
import { maxEditsOf, TypoCorrector } from '../analysis/typos';
import { parseLanguageWordLists } from '../../common/language-word-lists';
import { foldName, GazetteerError } from './gazetteer';
import type { Gazetteer, GazetteerMatch, Place } from './gazetteer';

/** A place named in a search: which words, and the places the name leads to. */
export interface PlaceMention {
  /** The position of its first word among the search's words, and how many words it spans. */
  start: number;
  length: number;
  /** The folded name, words joined by one space. */
  name: string;
  /** The word its expansions count for: the longest of its words (the last of equals). */
  token: string;
  /** The places it names (a name can be several places': the canton and the town of Zug). */
  matches: GazetteerMatch[];
}

/** The committed prepositions of place (same path from dist; `files` of package.json ships it). */
export const PLACE_PREPOSITIONS_PATH = sourceFilePath('query', 'gazetteer', 'place-prepositions.tsv');

/**
 * The prepositions that put a place after them in the four languages ("in Zug", "nach Bergen", "à
 * Nice", "a Brig"), folded (place-prepositions.tsv, reviewed data: GAZETTEER.md): read and
 * validated at start. An article between them and the name ("in den Bergen") makes it a common
 * word again.
 */
export function loadPlacePrepositions(path = PLACE_PREPOSITIONS_PATH): Set<string> {
  const lists = parseLanguageWordLists(readFileSync(path, 'utf8'), {
    languages: LANGUAGES,
    foldWords,
    error: (line, reason) => new GazetteerError(path, line, reason),
  });
  return new Set(LANGUAGES.flatMap((language) => lists[language]));
}

/** The letters foldText makes of `ae`, `oe` and `ue`. */
const FOLDED_BEFORE_E = new Set(['a', 'o', 'u']);

/** The shortest one-word name looked up as a place (`a`, `en` never are). */
const MIN_ONE_WORD_NAME = 3;

/**
 * The most names of places lying inside a named one that a search gains (nearest first): every
 * town, valley and lake of a canton or a region (Valais holds about 50 places), not every place of
 * a country. Only the names the index holds become terms (text-index/query-analyser.ts, at most 64 a word).
 */
export const MAX_WITHIN_NAMES = 200;

/**
 * Finds the gazetteer's places in a search and gives their names (apps/search/README.md, "Places"):
 * each name of the place in French, German, English, Italian and the local languages, and the names
 * of the places inside it (Valais: Zermatt, Saas-Fee, Leukerbad …), so that a search naming a place
 * in one language finds the offers written in another, and the offers of a town of the region.
 */
export class PlaceFinder {
  private readonly children = new Map<string, Place[]>();
  /** withinNames per place: a search naming a place reuses its names (the gazetteer never changes). */
  private readonly within = new Map<string, string[]>();
  /** The one-word names' typo corrector (analysis/typos.ts). */
  private readonly typos: TypoCorrector;

  constructor(
    private readonly gazetteer: Gazetteer,
    /** The prepositions of place (loadPlacePrepositions). */
    private readonly prepositions: ReadonlySet<string>,
  ) {
    for (const place of gazetteer.places) {
      if (place.parent === undefined) continue;
      const siblings = this.children.get(place.parent);
      if (siblings) siblings.push(place);
      else this.children.set(place.parent, [place]);
    }
    this.typos = new TypoCorrector(gazetteer.names().keys());
  }

  /**
   * A misspelt place name (`islnd`, `patagonai`, `pargue`): the one-word names within one edit of a
   * word of 5+ letters (two from 9 letters), two adjacent letters swapped counting as one edit
   * (analysis/string-metrics.ts, editDistance: `pargue`, `vneise`, `wlaes`, `zemratt`),
   * the closest (then in name order), with the places they name.
   * For a word the catalogue does not hold: a word it holds is a word of its own. Counted on
   * `work`, within its budget; a word longer than MAX_ANALYSED_WORD_LENGTH is no misspelt place.
   */
  corrected(word: string, language?: Language, work = new AnalysisWork()): PlaceMention | undefined {
    const best = this.typos.closest(word, work, 'sorted') ?? this.closestUnfolded(word, work);
    if (!best) return undefined;
    const matches = this.gazetteer
      .lookupFolded(best.word)
      .filter((match) => language === undefined || !match.commonWordIn.includes(language));
    return matches.length ? { start: -1, length: 1, name: best.word, token: word, matches } : undefined;
  }

  /**
   * The closest one-word name to `word` as it may have been typed before folding: a folded `a`,
   * `o` or `u` was `ae`, `oe` or `ue` (analysis/tokenizer.ts, foldText), and a swap next to an `e`
   * can write one (`Wlaes`, one swap from Wales, is folded `wlas`, two edits from `wales`). Each
   * such spelling with one `e` put back, left to right; the closest over them (then in name
   * order), counted on `work` as `corrected`. Only for the words allowed one edit once the `e` is
   * back: a longer word's two edits already cover a swap and the folding, and cost more.
   */
  private closestUnfolded(word: string, work: AnalysisWork): { word: string; edits: number } | undefined {
    if (maxEditsOf(word.length + 1) !== 1) return undefined;
    let best: { word: string; edits: number } | undefined;
    for (let i = 0; i < word.length; i++) {
      if (!FOLDED_BEFORE_E.has(word[i])) continue;
      const found = this.typos.closest(`${word.slice(0, i + 1)}e${word.slice(i + 1)}`, work, 'sorted');
      if (
        found &&
        (!best || found.edits < best.edits || (found.edits === best.edits && found.word < best.word))
      )
        best = found;
    }
    return best;
  }

  /**
   * The places a search's folded words name, left to right, the longest name first at each word
   * (`lago dei quattro cantoni` before `lago`), never overlapping. A name that is also a common word
   * of the search's language (`language`: "Bergen" in German, "Nice" in English) is that word, not
   * the place, unless a preposition of place comes right before it without an article (`ferien in
   * zug` is the town; `mit dem zug`, `in den bergen` are the words); a one-word name shorter than
   * MIN_ONE_WORD_NAME is left out.
   */
  mentions(words: readonly string[], language?: Language): PlaceMention[] {
    const found: PlaceMention[] = [];
    for (let start = 0; start < words.length;) {
      let mention: PlaceMention | undefined;
      for (let length = Math.min(this.gazetteer.maxNameWords, words.length - start); length >= 1; length--) {
        const spanned = words.slice(start, start + length);
        if (length === 1 && spanned[0].length < MIN_ONE_WORD_NAME) continue;
        const name = spanned.join(' ');
        const placed = start > 0 && this.prepositions.has(words[start - 1]);
        const matches = this.gazetteer
          .lookupFolded(name)
          .filter((match) => language === undefined || placed || !match.commonWordIn.includes(language));
        if (!matches.length) continue;
        const token = spanned.reduce((kept, word) => (word.length >= kept.length ? word : kept));
        mention = { start, length, name, token, matches };
        break;
      }
      if (mention) {
        found.push(mention);
        start += mention.length;
      } else {
        start++;
      }
    }
    return found;
  }

  /** Every folded name of a place (its names in the four languages and the local ones), distinct. */
  namesOf(place: Place): string[] {
    const names = [
      ...place.names.fr,
      ...place.names.de,
      ...place.names.en,
      ...place.names.it,
      ...place.local,
    ].map(foldName);
    return [...new Set(names)].filter((name) => name !== '');
  }

  /**
   * The folded names of the places inside a place (its children, then theirs: nearest first), at
   * most `max`, none of the place's own names.
   */
  withinNames(place: Place, max = MAX_WITHIN_NAMES): string[] {
    const key = `${place.id}\u0000${max}`;
    let names = this.within.get(key);
    if (!names) this.within.set(key, (names = this.collectWithin(place, max)));
    return names;
  }

  /** The names of the places inside `place`, nearest first (withinNames, computed once a place). */
  private collectWithin(place: Place, max: number): string[] {
    const own = new Set(this.namesOf(place));
    const names = new Set<string>();
    let layer = this.children.get(place.id) ?? [];
    while (layer.length && names.size < max) {
      const next: Place[] = [];
      for (const inside of layer) {
        for (const name of this.namesOf(inside)) {
          if (names.size >= max) break;
          if (!own.has(name)) names.add(name);
        }
        next.push(...(this.children.get(inside.id) ?? []));
      }
      layer = next;
    }
    return [...names];
  }
}
