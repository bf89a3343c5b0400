import { SURROGATE } from './tokenizer';

/**
 * The string metrics of the analysis: the edit distance (fuzzystrmatch's `levenshtein`, with an
 * adjacent transposition counted as one edit) and pg_trgm's trigrams and similarity,
 * as the retired SQL text side computed them, so that trigram candidates stay the ones PostgreSQL
 * found.
 */

/** pg_trgm's `%`: similarity at least `pg_trgm.similarity_threshold` (its default). */
export const SIMILARITY_THRESHOLD = 0.3;

/**
 * What an edit distance counts: `character` (code points, as fuzzystrmatch: the text side's
 * typos) or `utf16` (UTF-16 units: the glossary's and gazetteer's misspellings, whose deletion
 * index is built on them). The two differ only for characters past U+FFFF.
 */
export type EditUnit = 'character' | 'utf16';

/**
 * The edit distance of two strings: insertions, deletions, substitutions and transpositions of two
 * adjacent characters, each costing 1 (Damerau's distance as the optimal string alignment computes
 * it: no substring is edited twice, so `ca` → `abc` is 3). fuzzystrmatch's `levenshtein(a, b)`
 * counted a swap as two edits: `Pargue`, `Vneise` and `Wlaes` were no misspelling of Prague, Venise
 * and Wales. With `max`, it stops once every path is past it: a distance above `max` is
 * returned as some number above `max` (max + 1 when it stops early; a row's least cell never
 * decreases from one row to the next, transpositions included).
 */
export function editDistance(
  a: string,
  b: string,
  max = Number.POSITIVE_INFINITY,
  unit: EditUnit = 'character',
): number {
  // without a surrogate, a string's UTF-16 units are its characters
  const source = unit === 'utf16' || !SURROGATE.test(a) ? a : Array.from(a);
  const target = unit === 'utf16' || !SURROGATE.test(b) ? b : Array.from(b);
  if (Math.abs(source.length - target.length) > max) return max + 1;
  let earlier: number[] = [];
  let previous = Array.from({ length: target.length + 1 }, (_, j) => j);
  for (let i = 1; i <= source.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= target.length; j++) {
      const cost = source[i - 1] === target[j - 1] ? 0 : 1;
      let cell = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      // two adjacent characters swapped: one edit from the cell before both
      const swapped = i > 1 && j > 1 && source[i - 1] === target[j - 2] && source[i - 2] === target[j - 1];
      if (swapped && earlier[j - 2] + 1 < cell) cell = earlier[j - 2] + 1;
      current[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    if (rowMin > max) return max + 1;
    earlier = previous;
    previous = current;
  }
  return previous[target.length];
}

/**
 * pg_trgm's trigrams of a text (`show_trgm`): each word (a run of letters and digits, lower case)
 * padded with two spaces in front and one behind, its runs of 3 characters, distinct. pg_trgm
 * stores a trigram holding a non-ASCII character as a 3-byte hash of it; here it stays the text
 * (the same sets unless two such trigrams collide in 24 bits).
 */
export function trigramsOf(text: string): string[] {
  const grams: string[] = [];
  for (const word of trigramWords(text)) {
    const characters = Array.from(`  ${word} `);
    for (let i = 0; i + 3 <= characters.length; i++) {
      const gram = characters[i] + characters[i + 1] + characters[i + 2];
      if (!grams.includes(gram)) grams.push(gram);
    }
  }
  return grams;
}

/**
 * pg_trgm's `similarity(a, b)`: shared trigrams over the trigrams of either, a float4. The term
 * dictionary computes the same through its trigram lists (TermDictionary.similarWords); this is
 * the definition, for a pair of strings.
 */
export function trigramSimilarity(a: string, b: string): number {
  const left = trigramsOf(a);
  const right = new Set(trigramsOf(b));
  return similarityOf(left.filter((gram) => right.has(gram)).length, left.length, right.size);
}

/** The similarity of texts of `left` and `right` distinct trigrams sharing `shared`: a float4. */
export function similarityOf(shared: number, left: number, right: number): number {
  if (left <= 0 || right <= 0) return 0;
  return Math.fround(shared / (left + right - shared));
}

/** The words pg_trgm splits a text into (lower case); a term is mostly one already. */
function trigramWords(text: string): string[] {
  const lower = text.toLowerCase();
  if (PLAIN_WORD.test(lower)) return [lower];
  return Array.from(lower.matchAll(WORD_CHARACTERS), ([word]) => word);
}

const PLAIN_WORD = /^[a-z0-9]+$/;
const WORD_CHARACTERS = /[\p{L}\p{N}]+/gu;

/**
 * A trigram as the dictionary indexes it: a number when its characters are in the Basic
 * Multilingual Plane (no string to build and hash), else its text. One trigram, one key.
 */
export type TrigramKey = number | string;

/** The keys of ASCII trigrams: 3 characters of 7 bits. */
export const ASCII_TRIGRAM_KEYS = 1 << 21;

/** The distinct keys of `trigramsOf(text)`, written to `keys` from 0 (reused: no garbage); how many. */
export function collectTrigramKeys(text: string, keys: TrigramKey[]): number {
  let count = 0;
  const add = (key: TrigramKey) => {
    for (let k = 0; k < count; k++) if (keys[k] === key) return;
    keys[count++] = key;
  };
  const addWord = (word: string) => {
    if (SURROGATE.test(word)) {
      for (const gram of trigramsOf(word)) add(gram);
      return;
    }
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const a = padded.charCodeAt(i);
      const b = padded.charCodeAt(i + 1);
      const c = padded.charCodeAt(i + 2);
      // ASCII: below 2^21, a small integer; else from 2^37 (a space is 32), never one of those
      add((a | b | c) < 0x80 ? (a << 14) | (b << 7) | c : a * 0x100000000 + b * 0x10000 + c);
    }
  };
  const lower = text.toLowerCase();
  if (PLAIN_WORD.test(lower)) addWord(lower);
  else for (const word of trigramWords(lower)) addWord(word);
  return count;
}
