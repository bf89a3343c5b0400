import { GLOSSARY_LANGUAGES } from './glossary';
import type { GlossaryConcept, GlossaryLanguage } from './glossary';
import { AnalysisWork, isAnalysable } from '../analysis/analysis-budget';
import { knownEnd } from '../analysis/compounds';
import { foldWords } from '../analysis/tokenizer';

/**
 * The little words of each language a search is written with (articles, prepositions,
 * conjunctions), folded: written for this project from the languages themselves. A word of several
 * languages ("in", "la", "de") counts for each.
 */
// prettier-ignore
const FUNCTION_WORDS: Record<GlossaryLanguage, string[]> = {
  fr: [
    'le', 'la', 'les', 'l', 'un', 'une', 'des', 'du', 'de', 'd', 'au', 'aux', 'a', 'en', 'et', 'ou',
    'avec', 'sans', 'pour', 'par', 'sur', 'sous', 'dans', 'chez', 'vers', 'entre', 'pres', 'ce',
    'cette', 'ces', 'mon', 'ma', 'mes', 'nos', 'notre', 'vos', 'votre', 'plus', 'tres', 'que', 'qui',
  ],
  de: [
    'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'und', 'oder',
    'mit', 'ohne', 'fur', 'im', 'in', 'am', 'an', 'auf', 'aus', 'bei', 'nach', 'von', 'vom', 'zum',
    'zur', 'zu', 'uber', 'unter', 'durch', 'ins', 'ans', 'um', 'mein', 'meine', 'unser', 'sehr',
  ],
  en: [
    'the', 'a', 'an', 'and', 'or', 'with', 'without', 'for', 'in', 'on', 'at', 'to', 'of', 'from',
    'by', 'into', 'through', 'near', 'around', 'my', 'our', 'your', 'very', 'am', 'is', 'are',
  ],
  it: [
    'il', 'lo', 'la', 'i', 'gli', 'le', 'un', 'uno', 'una', 'di', 'del', 'dello', 'della', 'dei',
    'degli', 'delle', 'a', 'al', 'allo', 'alla', 'ai', 'agli', 'alle', 'da', 'dal', 'dalla', 'in',
    'nel', 'nello', 'nella', 'nei', 'con', 'per', 'su', 'sul', 'sulla', 'tra', 'fra', 'e', 'o',
    'molto',
  ],
};

/** What a search's words say of its language. */
export interface LanguageGuess {
  /** The language most of its words belong to; absent when none does more than another. */
  language?: GlossaryLanguage;
  /** Each language's share of the words: a word of k languages adds 1/k to each. */
  scores: Record<GlossaryLanguage, number>;
  /** The words that told, with their languages. */
  evidence: { word: string; languages: GlossaryLanguage[] }[];
}

/**
 * Guesses the language of a search from its words (apps/search/README.md, "The search's
 * language"): each word the glossary lists in some of French, German, English and Italian (or a
 * compound ending or starting with one), or one of those languages' little words, counts for them. The language with the most is the guess;
 * a tie, or no known word, guesses nothing. Measured against general-purpose detectors on the
 * judged multilingual set (docs/relevance-multilingual.md): searches are a few words long, where
 * the glossary's own vocabulary tells more than letter statistics.
 */
export class LanguageGuesser {
  private readonly languagesOf = new Map<string, Set<GlossaryLanguage>>();

  constructor(concepts: GlossaryConcept[]) {
    const add = (word: string, language: GlossaryLanguage) => {
      const languages = this.languagesOf.get(word);
      if (languages) languages.add(language);
      else this.languagesOf.set(word, new Set([language]));
    };
    for (const concept of concepts) {
      for (const language of GLOSSARY_LANGUAGES) {
        for (const written of concept.words[language]) {
          const words = foldWords(written);
          // a phrase tells by its own words only where they are not little words
          for (const word of words) if (words.length === 1 || word.length > 3) add(word, language);
        }
      }
    }
    for (const language of GLOSSARY_LANGUAGES)
      for (const word of FUNCTION_WORDS[language]) add(word, language);
  }

  /** The guess; the compound parts tried are counted on `work` (a word too long is no compound). */
  guess(words: string[], work = new AnalysisWork()): LanguageGuess {
    const scores = { fr: 0, de: 0, en: 0, it: 0 } as Record<GlossaryLanguage, number>;
    const evidence: LanguageGuess['evidence'] = [];
    for (const word of new Set(words)) {
      const languages = this.languagesOf.get(word) ?? this.partOf(word, work);
      if (!languages) continue;
      evidence.push({ word, languages: [...languages] });
      for (const language of languages) scores[language] += 1 / languages.size;
    }
    const ranked = [...GLOSSARY_LANGUAGES].sort((a, b) => scores[b] - scores[a]);
    const best = ranked[0];
    const language = scores[best] > 0 && scores[best] > scores[ranked[1]] ? best : undefined;
    return { ...(language ? { language } : {}), scores, evidence };
  }

  /**
   * The languages of a compound's known part (`weinreise`: "reise", German; `fjordkreuzfahrt`:
   * "kreuzfahrt"): the longest known word of 4+ letters it ends or starts with (analysis/compounds.ts,
   * knownEnd).
   */
  private partOf(word: string, work: AnalysisWork): Set<GlossaryLanguage> | undefined {
    if (!isAnalysable(word)) return undefined;
    return knownEnd(word, work, (part) => this.languagesOf.get(part));
  }
}
