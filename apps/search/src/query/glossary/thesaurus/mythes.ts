import { readFileSync } from 'node:fs';

/**
 * A reader of MyThes thesauri (LibreOffice's, the Debian packages `mythes-*`): a build-time input
 * of the glossary candidates generator (generate-glossary-candidates.ts), never read by the
 * service. The `.dat` file starts with its encoding (`UTF-8` or `ISO8859-1`), then each entry is
 * `word|n` followed by `n` lines `(part of speech)|synonym|synonym…`; the `.idx` file only says
 * where each entry starts, and is not needed to read the whole file. No maintained npm package
 * reads the format; it is a few lines.
 */

/** One meaning of an entry: its part of speech as the thesaurus writes it, and its words. */
export interface ThesaurusMeaning {
  partOfSpeech: string;
  words: string[];
}

/** The thesaurus: each entry's meanings, by the entry's word in lower case (as the `.idx` keys it). */
export type Thesaurus = Map<string, ThesaurusMeaning[]>;

/** A `.dat` file that cannot be read: `line` is 1-based. */
export class ThesaurusError extends Error {
  constructor(source: string, line: number, reason: string) {
    super(`${source}, line ${line}: ${reason}`);
    this.name = 'ThesaurusError';
  }
}

/** The encodings a `.dat` file may name on its first line, as Node decodes them. */
const ENCODINGS: Record<string, BufferEncoding> = {
  'UTF-8': 'utf8',
  'ISO8859-1': 'latin1',
  'ISO-8859-1': 'latin1',
};

/** Decodes a `.dat` file's bytes in the encoding its first line names. */
export function decodeThesaurus(bytes: Buffer, source = 'thesaurus'): string {
  const end = bytes.indexOf(0x0a);
  const name = bytes
    .subarray(0, end < 0 ? bytes.length : end)
    .toString('latin1')
    .trim();
  const encoding = ENCODINGS[name.toUpperCase()];
  if (!encoding) throw new ThesaurusError(source, 1, `unknown encoding "${name}"`);
  return bytes.toString(encoding);
}

/**
 * Reads a `.dat` file's text (its encoding line first). A word's notes in brackets ("Gestade
 * (geh., veraltet)", "formation (generic term)") are kept as the thesaurus writes them: the
 * generator decides what to make of them. Refuses an entry whose count is not a number or that
 * has fewer meaning lines than it says.
 */
export function parseThesaurus(text: string, source = 'thesaurus'): Thesaurus {
  const lines = text.split(/\r?\n/);
  const thesaurus: Thesaurus = new Map();
  let at = 1;
  while (at < lines.length) {
    const head = lines[at];
    if (head.trim() === '') {
      at++;
      continue;
    }
    const bar = head.lastIndexOf('|');
    const count = bar < 0 ? NaN : Number(head.slice(bar + 1));
    if (!Number.isInteger(count) || count < 0) {
      throw new ThesaurusError(source, at + 1, `"${head}" is not "word|count"`);
    }
    const word = head.slice(0, bar).toLowerCase();
    const meanings: ThesaurusMeaning[] = [];
    for (let i = 1; i <= count; i++) {
      const line = lines[at + i];
      if (line === undefined || !line.includes('|')) {
        throw new ThesaurusError(source, at + i + 1, `"${word}" announces ${count} meanings, ${i - 1} found`);
      }
      const [partOfSpeech, ...words] = line.split('|');
      meanings.push({ partOfSpeech, words: words.map((each) => each.trim()).filter((each) => each !== '') });
    }
    const known = thesaurus.get(word);
    if (known) known.push(...meanings);
    else thesaurus.set(word, meanings);
    at += count + 1;
  }
  return thesaurus;
}

/** Reads a `.dat` file from disk. */
export function loadThesaurus(path: string): Thesaurus {
  return parseThesaurus(decodeThesaurus(readFileSync(path), path), path);
}

/**
 * A synonym as a traveller would write it: the thesaurus's notes in brackets dropped ("Gestade
 * (geh., veraltet)" → "Gestade"); undefined for a note-only entry, a generic term ("(generic
 * term)", "(Oberbegriff)": a broader word, not a synonym) and an antonym ("(antonym)").
 */
export function plainSynonym(word: string): string | undefined {
  if (/\((generic term|oberbegriff|antonym|antonym[a-z]*|gegenteil|gegensatzwort)\)/i.test(word))
    return undefined;
  const plain = word
    .replace(/\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain === '' || plain.includes('...') ? undefined : plain;
}
