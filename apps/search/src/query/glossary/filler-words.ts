import { readFileSync } from 'node:fs';
import { sourceFilePath } from '../../common/source-files';
import { parseLanguageWordLists } from '../../common/language-word-lists';
import { LANGUAGES } from '../analysis/languages';
import type { Language } from '../analysis/languages';
import { foldWords } from '../analysis/tokenizer';
import { GlossaryError } from './glossary';

/** The committed filler words (same path from dist; `files` of package.json ships it). */
export const FILLER_WORDS_PATH = sourceFilePath('query', 'glossary', 'filler-words.tsv');

/**
 * The words a traveller's sentence is made of beside what it asks for ("plusieurs", "want",
 * "along", "möchte", "qualche"), folded, per language (filler-words.tsv, generated from the
 * stopwords-iso lists by generate-filler-words.ts and reviewed: GLOSSARY.md). A search's filler
 * word is a minor concept that selects no offer on its own (query-terms.ts); a word the glossary
 * or the gazetteer knows is never one (query-expansion.service.ts).
 */
export function loadFillerWords(path = FILLER_WORDS_PATH): Record<Language, string[]> {
  return parseLanguageWordLists(readFileSync(path, 'utf8'), {
    languages: LANGUAGES,
    foldWords,
    error: (line, reason) => new GlossaryError(path, line, reason),
  });
}
