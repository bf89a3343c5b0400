import { readFileSync } from 'node:fs';
import { sourceFilePath } from '../../common/source-files';
import { LANGUAGES } from '../analysis/languages';
import type { Language } from '../analysis/languages';
import { parseLanguageWordLists } from '../../common/language-word-lists';
import { GlossaryError } from './glossary';
import type { GlossaryConcept } from './glossary';
import { AnalysisWork, isAnalysable } from '../analysis/analysis-budget';
import { knownEnd } from '../analysis/compounds';
import { foldWords } from '../analysis/tokenizer';
import type { LanguageGuess } from '../analysis/analysed-query';

export type { LanguageGuess };

/** The committed function words (same path from dist; `files` of package.json ships it). */
export const FUNCTION_WORDS_PATH = sourceFilePath('query', 'glossary', 'function-words.tsv');

/**
 * The little words of each language a search is written with (articles, prepositions,
 * conjunctions), folded (function-words.tsv, reviewed data: GLOSSARY.md): read and validated at
 * start. A word of several languages ("in", "la", "de") counts for each.
 */
export function loadFunctionWords(path = FUNCTION_WORDS_PATH): Record<Language, string[]> {
  return parseLanguageWordLists(readFileSync(path, 'utf8'), {
    languages: LANGUAGES,
    foldWords,
    error: (line, reason) => new GlossaryError(path, line, reason),
  });
}

/** A glossary phrase's word of at most this many letters is a little word, which tells no language. */
const LITTLE_WORD_MAX_LENGTH = 3;

/**
 * Guesses the language of a search from its words (apps/search/README.md, "The search's
 * language"): each word the glossary lists in some of French, German, English and Italian (or a
 * compound ending or starting with one), or one of those languages' little words
 * (loadFunctionWords), counts for them. The language with the most is the guess; a tie, or no
 * known word, guesses nothing. Measured against general-purpose detectors on the
 * judged multilingual set (docs/relevance-multilingual.md): searches are a few words long, where
 * the glossary's own vocabulary tells more than letter statistics.
 */
export class LanguageGuesser {
  private readonly languagesOf = new Map<string, Set<Language>>();

  constructor(concepts: GlossaryConcept[], functionWords: Record<Language, string[]>) {
    const add = (word: string, language: Language) => {
      const languages = this.languagesOf.get(word);
      if (languages) languages.add(language);
      else this.languagesOf.set(word, new Set([language]));
    };
    for (const concept of concepts) {
      for (const language of LANGUAGES) {
        for (const written of concept.words[language]) {
          const words = foldWords(written);
          // a phrase tells by its own words only where they are not little words
          for (const word of words) {
            if (words.length === 1 || word.length > LITTLE_WORD_MAX_LENGTH) add(word, language);
          }
        }
      }
    }
    for (const language of LANGUAGES) for (const word of functionWords[language]) add(word, language);
  }

  /** The guess; the compound parts tried are counted on `work` (a word too long is no compound). */
  guess(words: readonly string[], work = new AnalysisWork()): LanguageGuess {
    const scores = { fr: 0, de: 0, en: 0, it: 0 } as Record<Language, number>;
    const evidence: LanguageGuess['evidence'] = [];
    for (const word of new Set(words)) {
      const languages = this.languagesOf.get(word) ?? this.partOf(word, work);
      if (!languages) continue;
      evidence.push({ word, languages: [...languages] });
      for (const language of languages) scores[language] += 1 / languages.size;
    }
    const ranked = [...LANGUAGES].sort((a, b) => scores[b] - scores[a]);
    const best = ranked[0];
    const language = scores[best] > 0 && scores[best] > scores[ranked[1]] ? best : undefined;
    return { ...(language ? { language } : {}), scores, evidence };
  }

  /**
   * The languages of a compound's known part (`weinreise`: "reise", German; `fjordkreuzfahrt`:
   * "kreuzfahrt"): the longest known word of 4+ letters it ends or starts with (analysis/compounds.ts,
   * knownEnd).
   */
  private partOf(word: string, work: AnalysisWork): Set<Language> | undefined {
    if (!isAnalysable(word)) return undefined;
    return knownEnd(word, work, (part) => this.languagesOf.get(part));
  }
}

/** What a place name tells of a language: the languages among the four whose name of the place it is. */
export interface NamedPlace {
  /** The search's word that names the place. */
  token: string;
  /** Per place so named, the languages writing that name (`local`: a local name). */
  matches: readonly { languages: readonly (Language | 'local')[] }[];
}

/**
 * The guess, decided by the places a search names where its words leave it open (a tie, or no
 * word that tells: "vneise week-end", "wlaes road trip", a loanword shared by languages): among the
 * languages the words left (all four when none told), the one language that writes a place's name
 * so ("genf" German, "venise" French, "vallese" Italian), when the places named tell exactly one.
 * A name written alike in several of the four ("zurich", "zermatt") or only a local name of
 * another language ("praha") tells nothing. A misspelt name tells by the name it was read as.
 */
export function withPlaceLanguage(guess: LanguageGuess, places: readonly NamedPlace[]): LanguageGuess {
  if (guess.language !== undefined || !places.length) return guess;
  const best = Math.max(...LANGUAGES.map((language) => guess.scores[language]));
  const open = LANGUAGES.filter((language) => best === 0 || guess.scores[language] === best);
  const told = new Set<Language>();
  const evidence: LanguageGuess['evidence'] = [];
  for (const place of places) {
    const languages = new Set<Language>();
    for (const match of place.matches) {
      for (const language of match.languages) if (language !== 'local') languages.add(language);
    }
    const [language] = languages;
    if (languages.size !== 1 || !open.includes(language)) continue;
    told.add(language);
    evidence.push({ word: place.token, languages: [language] });
  }
  if (told.size !== 1) return guess;
  return { ...guess, language: [...told][0], evidence: [...guess.evidence, ...evidence] };
}
