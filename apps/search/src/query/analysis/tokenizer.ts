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
  ħ: 'h',
};

/**
 * The German transliterations of `ä`, `ö`, `ü` folded as the letters they stand for (D-54, migration
 * FoldGermanDigraphsOnly), on the lower-case text before its accents come off: `ae` → `a`, `oe` → `o`
 * (not before `u`: French `coeur`, `oeuvre` written without the ligature), `ue` → `u` when its `e`
 * carries no accent (`Suède`, `Québec`, `nuée`: German never writes `ü` so) and it follows neither
 * `q` (`Quebec`, `Quelle`, `musique`) nor `o` (French `jouer`, `louer`, `Rouen`). An accented `e`
 * after `a` or `o` folds as a plain one (`aéroport` and `aeroport` stay one word). The same
 * expression as the SQL function's: one left-to-right pass, matches never overlapping.
 */
export const GERMAN_DIGRAPHS =
  /(a|o(?![eéèêë][\u0300-\u036f]*u))[eéèêë][\u0300-\u036f]*|(?<![oq])(u)e(?![\u0300-\u036f])/g;

/**
 * `travel_fold` of the text side (migrations AddTextSide, FoldGermanDigraphsOnly): lower case, `æ`,
 * `œ` written out (`cœur` as `coeur` is typed), the German digraphs (GERMAN_DIGRAPHS), then accents
 * off, `ß` → `ss`.
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[æœ]/g, (ligature) => UNACCENT_LETTERS[ligature])
    .replace(GERMAN_DIGRAPHS, (_, aOrO: string | undefined, u: string | undefined) => aOrO ?? u ?? '')
    .replace(/[ßæœøłđðþıħ]/g, (letter) => UNACCENT_LETTERS[letter])
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
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
