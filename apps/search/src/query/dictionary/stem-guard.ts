import { AnalysisWork } from '../analysis/analysis-budget';
import type { StemsOf, TokenForms } from '../analysis/stems';
import { REAL_WORD_MIN_LENGTH } from './real-words';
import type { RealWords } from './real-words';

/** The languages the text side stems a word in (stems.ts: `fr`, `de`, `en`). */
const STEMMED = ['fr', 'de', 'en'] as const;

/**
 * The search's stems with the dictionaries' guard against stem collisions across languages
 * (docs/decisions.md D-82, "Stem collisions"): a language's stem of a word counts only when the
 * word is a word of that language (Hunspell, a name too: `Genève` keeps its French stem `genev`),
 * when no other stemmed language's dictionary (French, German, English) knows it as a common
 * word, or when the stem is the word's stem in such a language as well (a cognate: `alpes`, `alp`).
 * Otherwise the stem is of a word the language does not have, and it finds another word of that
 * language: German `meer` stemmed by French is `me`, English `bale` stemmed by German `bal`; the
 * word keeps its own form and the stems of its languages. A place's
 * word (`keep`: the gazetteer's, whose other names find its offers) and a word shorter than
 * REAL_WORD_MIN_LENGTH are left as they are. Each check is counted on `work` (RealWords).
 */
export function guardedStems(
  stems: StemsOf,
  realWords: RealWords,
  keep: ReadonlySet<string>,
  work: AnalysisWork = new AnalysisWork(),
): StemsOf {
  const guarded = new Map<string, TokenForms>();
  return (token: string) => {
    const forms = stems(token);
    if (forms.stop || token.length < REAL_WORD_MIN_LENGTH || keep.has(token)) return forms;
    const differing = STEMMED.filter((language) => forms[language] !== null && forms[language] !== token);
    if (!differing.length) return forms;
    const known = guarded.get(token);
    if (known) return known;
    // the stemmed languages only: an Italian word has no stem of its own (no Italian stemmer), and
    // French, German and English stems find its cognates (`dolomiti`: `dolomit`, the Dolomites)
    const common = STEMMED.filter((language) => realWords.isCommonWord(token, [language], work));
    const own = new Set(common.map((language) => forms[language] ?? token));
    let kept = forms;
    for (const language of differing) {
      if (!common.length || common.includes(language)) continue;
      const stem = forms[language];
      // the same stem as in the word's own language (`alpes`: `alp` in French and German) is its cognate's
      if (stem === null || stem === token || own.has(stem)) continue;
      // a word of the language (a name too) keeps its stem there; else another's common word loses it
      if (realWords.isWord(token, [language], work)) continue;
      kept = { ...kept, [language]: null };
    }
    guarded.set(token, kept);
    return kept;
  };
}
