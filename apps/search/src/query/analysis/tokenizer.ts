/**
 * The tokenizer of the text side, for the index's words and a search's alike: folding
 * (`travel_fold`), splitting into words, and the character counts and order the analysis compares
 * them by. Checked against the database's own folding on every glossary word by
 * test/glossary.e2e-spec.ts.
 */

// What PostgreSQL's `unaccent` turns into letters that NFKD does not decompose.
const UNACCENT_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * `travel_fold` of the text side (migration AddTextSide): lower case, accents off, `ß` → `ss`, and
 * the German transliterations `ae`, `oe`, `ue` → `a`, `o`, `u`.
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => UNACCENT_LETTERS[letter])
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/ue/g, 'u');
}

/** The words of a text as the text side splits a search: folded, split on anything but letters and digits. */
export function foldWords(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** A UTF-16 surrogate: a text holding one has characters past U+FFFF (two units each). */
export const SURROGATE = /[\ud800-\udfff]/;

/** SQL's `length(text)`: characters, not UTF-16 units. */
export function characterLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** The terms' order of `ORDER BY term` under `COLLATE "C"`: UTF-8 bytes, that is code points. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** UTF-16 order but surrogates (characters past U+FFFF) after U+E000–U+FFFF, as in code point order. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}
