/**
 * Searches of at most 500 characters (the `search` parameter's limit) written to cost as much
 * analysis as they can (D-72): one long word, repeated letters, many words, every script. Fed
 * to the analysis by analysis/analysis-budget.spec.ts and timed over HTTP by `pnpm bench:search`
 * beside the typed searches.
 */

/** Deterministic letters of an alphabet (a linear congruential generator). */
function letters(alphabet: string, count: number, seed: number): string {
  const characters = Array.from(alphabet);
  let state = seed;
  let text = '';
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    text += characters[state % characters.length];
  }
  return text;
}

const LATIN = 'abcdefghijklmnopqrstuvwxyz';
/** Words of `length` letters, each different, separated by spaces, up to 500 characters. */
function words(alphabet: string, length: number): string {
  const list: string[] = [];
  for (let seed = 1; list.join(' ').length < 500; seed++) list.push(letters(alphabet, length, seed));
  return list.join(' ').slice(0, 500);
}

export const HOSTILE_SEARCHES: [string, string][] = [
  ['one 500-letter word', letters(LATIN, 500, 7)],
  ['one letter repeated', 'a'.repeat(500)],
  ['two letters repeated', 'ab'.repeat(250)],
  ['a real compound repeated', 'schneeschuhwanderung'.repeat(25)],
  ['words of 32 letters (the longest analysed)', words(LATIN, 32)],
  ['words of 20 letters', words(LATIN, 20)],
  ['words of 9 letters', words(LATIN, 9)],
  ['words of 3 letters', words(LATIN, 3)],
  ['one-letter words', 'a b c d e f g h i j k '.repeat(23).slice(0, 500)],
  ['Latin with diacritics', words('àáâäãåæçèéêëìíîïñòóôöõøœßùúûüýÿ', 12)],
  ['ß folds to ss (1,000 letters)', 'ß'.repeat(500)],
  ['Cyrillic', words('абвгдеёжзийклмнопрстуфхцчшщъыьэюя', 25)],
  ['Greek', words('αβγδεζηθικλμνξοπρστυφχψω', 30)],
  ['CJK', letters('旅行山海湖雪滑冰温泉城市美食文化', 500, 3)],
  ['Arabic', words('ابتثجحخدذرزسشصضطظعغفقكلمنهوي', 18)],
  ['Arabic ligature that folds to 18 characters', '\ufdfa'.repeat(500)],
  ['emoji', '🏔️🏖️⛷️🌋🗺️'.repeat(40).slice(0, 500)],
  ['combining marks', 'e\u0301\u0302\u0303\u0304'.repeat(100)],
  ['a real word with stacked combining marks', 'wanderung' + '\u0301'.repeat(491)],
  ['misspelt places', 'zermat islnd patagonai grindelwlad lauterbrunen '.repeat(10).slice(0, 500)],
];
