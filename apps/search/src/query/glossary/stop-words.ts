import { readFileSync } from 'node:fs';
import { sourceFilePath } from '../../common/source-files';
import { parseLanguageWordLists } from '../../common/language-word-lists';
import { foldWords } from '../analysis/tokenizer';
import { GlossaryError } from './glossary';
import { loadFunctionWords } from './language-guess';

/** The committed copy of PostgreSQL's stop words (same path from dist; `files` of package.json ships it). */
export const STOP_WORDS_PATH = sourceFilePath('query', 'glossary', 'stop-words.tsv');

/** The languages whose PostgreSQL stop words the text side tests (src/query/analysis/stems.ts, `stop`). */
const STOP_WORD_LANGUAGES = ['fr', 'de', 'en'] as const;

/**
 * The little words an expansion's phrase may not hold (GLOSSARY.md, "expansions that say one
 * thing"): the function words of the four languages (function-words.tsv) and PostgreSQL's stop
 * words of the French, German and English stemmers as a folded search meets them (stop-words.tsv). The text side looks
 * a phrase up as its pairs of adjacent words (src/query/analysis/stems.ts, termFormsOf): a pair of a
 * little word and a word ("tour in", "de genev") matches whatever follows or precedes that word.
 */
export function loadStopWords(
  path = STOP_WORDS_PATH,
  functionWords: Record<string, string[]> = loadFunctionWords(),
): Set<string> {
  const lists = parseLanguageWordLists(readFileSync(path, 'utf8'), {
    languages: STOP_WORD_LANGUAGES,
    foldWords,
    error: (line, reason) => new GlossaryError(path, line, reason),
  });
  return new Set([...Object.values(lists).flat(), ...Object.values(functionWords).flat()]);
}

/** Whether a folded phrase of several words holds one of `stopWords` ("tour in auto", "canton de geneve"). */
export function isPhraseWithStopWord(phrase: string, stopWords: ReadonlySet<string>): boolean {
  const words = phrase.split(' ').filter((word) => word !== '');
  return words.length > 1 && words.some((word) => stopWords.has(word));
}
