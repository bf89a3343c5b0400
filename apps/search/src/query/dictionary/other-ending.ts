/**
 * A real word is still corrected into a form that keeps at least its first this many letters and
 * changes at most SAME_WORD_MAX_ENDING of its last ones (and adds as many): another ending of the
 * same word, not another word (`schneeschuhwanderung` → the glossary's `schneeschuhwandern`,
 * `bergwandern` → `bergwanderung`; measured on the multilingual judged set, whose compound
 * searches lost those corrections). `march` → `marche` (5 letters kept) is another word.
 */
export const SAME_WORD_MIN_PREFIX = 8;
/** The most letters of a real word's ending a correction into the same word changes (above). */
export const SAME_WORD_MAX_ENDING = 3;

/** Whether `correction` is `word` with another ending (SAME_WORD_MIN_PREFIX, SAME_WORD_MAX_ENDING). */
export function isOtherEnding(word: string, correction: string): boolean {
  let shared = 0;
  while (shared < word.length && word[shared] === correction[shared]) shared++;
  return (
    shared >= SAME_WORD_MIN_PREFIX &&
    word.length - shared <= SAME_WORD_MAX_ENDING &&
    correction.length - shared <= SAME_WORD_MAX_ENDING
  );
}
