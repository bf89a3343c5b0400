import { listCell, tsvRows } from './tsv';

/**
 * A reviewed file of little words by language (`language`, then its `words` separated by `;`):
 * the language guess's function words (glossary/function-words.tsv), the prepositions of place
 * (gazetteer/place-prepositions.tsv). The words are written folded, as a search's words are
 * (`foldWords`), so that they are looked up as they come. Refuses, naming the line, a language not
 * in `languages` or given twice, a word given twice in a list or not written folded, a list
 * without a word, and a file without a list of some language.
 */
export function parseLanguageWordLists<Language extends string>(
  text: string,
  options: {
    languages: readonly Language[];
    foldWords: (text: string) => string[];
    error: (line: number, reason: string) => Error;
  },
): Record<Language, string[]> {
  const { languages, foldWords, error } = options;
  const lists = new Map<Language, string[]>();
  let lastLine = 1;
  for (const { line, columns } of tsvRows(text, ['language', 'words'], error)) {
    lastLine = line;
    const [language, cell] = columns;
    if (!(languages as readonly string[]).includes(language)) {
      throw error(line, `unknown language "${language}" (${languages.join(', ')})`);
    }
    if (lists.has(language as Language)) throw error(line, `language "${language}" given twice`);
    const words = listCell(cell);
    if (!words.length) throw error(line, 'no word');
    for (const [at, word] of words.entries()) {
      const folded = foldWords(word);
      if (folded.length !== 1 || folded[0] !== word) throw error(line, `"${word}" is not one folded word`);
      if (words.indexOf(word) < at) throw error(line, `"${word}" given twice`);
    }
    lists.set(language as Language, words);
  }
  const missing = languages.filter((language) => !lists.has(language));
  if (missing.length) throw error(lastLine, `no words of ${missing.join(', ')}`);
  return Object.fromEntries(lists) as Record<Language, string[]>;
}
