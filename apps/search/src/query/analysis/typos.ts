import { AnalysisWork, deletionCost, isAnalysable } from './analysis-budget';
import { editDistance, SIMILARITY_THRESHOLD } from './string-metrics';
import { byDocuments, type Counted, type TermDictionary } from './term-dictionary';
import type { StemsOf } from './stems';
import { characterLength } from './tokenizer';

/**
 * The typo rules of the analysis, one for the text side's index words, the glossary's words and
 * the gazetteer's names: a word of TYPO_MIN_LENGTH+ letters may be a misspelling within one edit,
 * of TWO_EDITS_MIN_LENGTH+ letters within two (editDistance: a swap of two adjacent letters is one
 * edit). Two ways to find the candidates: the index's words sharing trigrams with the
 * word (indexTypos, pg_trgm's `%` as the retired SQL found them) or spelt as it with two adjacent
 * letters swapped (a swap changes up to four trigrams: `vneise` shares 3 of 11 with `venise`,
 * below pg_trgm's 0.3), and a word list's forms with letters deleted (TypoCorrector, SymSpell,
 * whose forms one letter shorter also meet a swap). A word of SHORT_TYPO_LENGTH letters the
 * index lacks is corrected too, toward a much more frequent index word within one edit only
 * (shortTypo: `skii` → `ski`).
 */

/** The shortest word that may be a misspelling (shorter ones are too easily another word). */
export const TYPO_MIN_LENGTH = 5;
/** The shortest word that may be a misspelling within two edits. */
export const TWO_EDITS_MIN_LENGTH = 9;
/** The most index words one query word's typos become. */
export const MAX_TYPOS = 5;

/**
 * The length of a word the index lacks that is corrected only toward a much more frequent index
 * word within one edit (`skii`, `yoha`, `sutf`, `vwlo`, `lsgo`). Shorter words are left
 * alone: a word of 3 letters is within one edit of too many others.
 */
export const SHORT_TYPO_LENGTH = 4;

/**
 * How many times more offers the correction of a SHORT_TYPO_LENGTH-letter word holds than the
 * next index word within one edit of it (of those shortTypo tries). A 4-letter word is within one
 * edit of many words; it is corrected only when one of them stands out. Measured on the
 * multilingual judged catalogue (465 offers, its words folded, the first letter kept): the judged
 * 4-letter typos are alone within one edit (`vwlo` velo 21 offers, `lsgo` lago 16, `sutf` surf 6,
 * `yoha` yoga 5) or far ahead (`skii`: ski 44, skip 1); real words the catalogue lacks are not:
 * `like` (lake 19, line 3: 6.3 times), `bier` (bien 8, beer 1: 8 times). 10 refuses both.
 */
export const SHORT_TYPO_MIN_RATIO = 10;

/**
 * The fewest offers the correction of a SHORT_TYPO_LENGTH-letter word holds, when no other word is
 * within one edit (`yoha` → yoga, 5 offers of 465; `mwer` → meer, 2, is refused: it might as well
 * be no typo at all). Far below any word worth correcting to in a larger catalogue (`ski`: hundreds
 * of the 100,000 generated offers).
 */
export const SHORT_TYPO_MIN_DOCUMENTS = 4;

/**
 * The most words (stop words aside) of a search whose SHORT_TYPO_LENGTH-letter words are corrected
 * (indexTypos' `shortTypos`). In a sentence, a 4-letter word the index lacks is mostly a word of
 * the sentence, not a typo: `want` became `wand` ("I want to go skiing in Austria…"), `voir`
 * became `votre` ("… pour voir les volcans"), each covering a word of offers that lack the search's
 * concepts (generated judged set, type long). The judged 4-letter typos are searches of one word.
 */
export const SHORT_TYPO_MAX_WORDS = 3;

/**
 * Whether a search (its folded words) is a short one: at most SHORT_TYPO_MAX_WORDS words, stop
 * words aside. In a longer one, a sentence, a SHORT_TYPO_LENGTH-letter word is not corrected, and
 * a word found only by a correction is a minor concept (query-terms.ts): the correction is a guess,
 * and the sentence's word more often one the catalogue lacks than a misspelling (`faire` became
 * `fire`, "Winter sports in Vík", for "je voudrais faire un road trip en Islande…").
 */
export function isShortSearch(words: readonly string[], stems: StemsOf): boolean {
  return words.filter((token) => !stems(token).stop).length <= SHORT_TYPO_MAX_WORDS;
}

/**
 * How many letters a SHORT_TYPO_LENGTH-letter word's correction keeps from its start, as Lucene's
 * spell checker does by default (DirectSpellChecker's `minPrefix` 1): a traveller rarely mistypes
 * a short word's first letter, and a real word the catalogue lacks is often one first letter away
 * from a frequent one (`good` from `food`, 32 offers of the multilingual catalogue, alone).
 */
export const SHORT_TYPO_PREFIX = 1;

/**
 * The letters tried in a SHORT_TYPO_LENGTH-letter word's substitutions and insertions (besides its
 * own): the folded Latin alphabet and digits, what the catalogues' words are written in.
 */
const SHORT_TYPO_LETTERS = Array.from('abcdefghijklmnopqrstuvwxyz0123456789');

/** How many edits a word of `length` letters may be from the word meant: 0 (none tried), 1 or 2. */
export function maxEditsOf(length: number): 0 | 1 | 2 {
  if (length < TYPO_MIN_LENGTH) return 0;
  return length >= TWO_EDITS_MIN_LENGTH ? 2 : 1;
}

/** A word found as a typo of a query word. */
export interface Typo extends Counted {
  edits: number;
}

/**
 * The MAX_TYPOS index words closest to a query word: similar (pg_trgm `%`) to one of its
 * `variants` (itself and its stems), at the least edit distance (characters) to one, within
 * maxEditsOf its length; closest, then most frequent, then by term. Each trigram list read and
 * each distance is counted on `work`, stopping at its budget.
 */
export function indexTypos(
  dictionary: TermDictionary,
  token: string,
  variants: string[],
  work: AnalysisWork,
  /** Whether a SHORT_TYPO_LENGTH-letter word is corrected (shortTypo): a short search's. */
  shortTypos = true,
): Typo[] {
  const length = characterLength(token);
  if (length === SHORT_TYPO_LENGTH) return shortTypos ? shortTypo(dictionary, token, work) : [];
  const maxEdits = maxEditsOf(length);
  if (maxEdits === 0) return [];
  const candidates = new Map<string, number>();
  const afford = (entries: number) => work.spend(token, 'trigrams', entries);
  for (const variant of new Set(variants)) {
    for (const id of dictionary.similarWords(variant, SIMILARITY_THRESHOLD, afford)) {
      candidates.set(dictionary.wordAt(id), dictionary.documentsAt(id));
    }
  }
  // the words spelt as the token with two adjacent letters swapped, which trigrams miss in a short
  // word (a swap changes up to 4 trigrams: `vneise` shares 3 of 11 with `venise`); a word of
  // TWO_EDITS_MIN_LENGTH+ letters keeps 6 of 10 or more (0.43+), found by trigrams
  const swapped = maxEdits === 1 ? swapsOf(token) : [];
  if (swapped.length && work.spend(token, 'lookups', swapped.length * length)) {
    for (const form of swapped) {
      const documents = dictionary.documentsOf(form);
      if (documents !== undefined) candidates.set(form, documents);
    }
  }
  const typos: Typo[] = [];
  for (const [term, documents] of candidates) {
    // at most a row of cells per character of each variant (fewer: editDistance stops early)
    if (!work.spend(token, 'edits', term.length * variants.reduce((sum, variant) => sum + variant.length, 0)))
      break;
    const edits = Math.min(...variants.map((variant) => editDistance(term, variant, maxEdits)));
    if (edits <= maxEdits) typos.push({ term, documents, edits });
  }
  typos.sort((a, b) => a.edits - b.edits || byDocuments(a, b));
  return typos.slice(0, MAX_TYPOS);
}

/**
 * The correction of a SHORT_TYPO_LENGTH-letter word the index lacks: among the index's
 * words within one edit of it (oneEditForms, looked up: trigrams say little of 4 letters, `yoha`
 * shares 2 of 8 with `yoga`), the one held by the most offers, when it holds at least
 * SHORT_TYPO_MIN_RATIO times as many as the next and at least SHORT_TYPO_MIN_DOCUMENTS; else none.
 * Its look-ups are counted on `work`.
 */
export function shortTypo(dictionary: TermDictionary, token: string, work: AnalysisWork): Typo[] {
  const letters = Array.from(token);
  if (letters.length !== SHORT_TYPO_LENGTH || dictionary.documentsOf(token) !== undefined) return [];
  const forms = oneEditForms(letters);
  if (!work.spend(token, 'lookups', forms.size * letters.length)) return [];
  const found: Counted[] = [];
  for (const term of forms) {
    const documents = dictionary.documentsOf(term);
    if (documents !== undefined) found.push({ term, documents });
  }
  const [best, next] = found.sort(byDocuments);
  const needed = Math.max(SHORT_TYPO_MIN_RATIO * (next?.documents ?? 0), SHORT_TYPO_MIN_DOCUMENTS);
  if (!best || best.documents < needed) return [];
  return [{ ...best, edits: 1 }];
}

/** A word's forms with two adjacent characters (code points) swapped, none equal to it. */
export function swapsOf(word: string): string[] {
  const letters = Array.from(word);
  const forms = new Set<string>();
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const swapped = [...letters];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    forms.add(swapped.join(''));
  }
  return [...forms];
}

/**
 * A word's forms one edit away that keep its first SHORT_TYPO_PREFIX letters, not the word itself:
 * a swap of adjacent letters, a substitution or an insertion of one of SHORT_TYPO_LETTERS or the
 * word's own letters (about 250 forms for 4 letters), and a letter typed twice typed once. A shorter word is not found by leaving out any
 * other letter: the 3-letter words are mostly the three languages' little words (`wein` → `ein`,
 * `dein` → `den`), held by many offers, so always the most frequent neighbour.
 */
function oneEditForms(letters: string[]): Set<string> {
  const alphabet = new Set([...SHORT_TYPO_LETTERS, ...letters]);
  const word = letters.join('');
  const forms = new Set<string>(
    swapsOf(word).filter((form) => form.startsWith(word.slice(0, SHORT_TYPO_PREFIX))),
  );
  // the word's heads (its first i letters) and tails (the letters from i on), built once
  const heads = [''];
  for (const letter of letters) heads.push(heads[heads.length - 1] + letter);
  const tails = [''];
  for (let i = letters.length - 1; i >= 0; i--) tails.unshift(letters[i] + tails[0]);
  for (let i = SHORT_TYPO_PREFIX; i <= letters.length; i++) {
    // a letter typed twice, not any letter left out: `skii` is `ski`, `wein` is no `ein`
    if (i < letters.length - 1 && letters[i] === letters[i + 1]) forms.add(heads[i] + tails[i + 1]);
    for (const letter of alphabet) {
      forms.add(heads[i] + letter + tails[i]);
      if (i < letters.length) forms.add(heads[i] + letter + tails[i + 1]);
    }
  }
  forms.delete(word);
  return forms;
}

/** A word and its forms with up to `depth` letters (UTF-16 units) deleted. */
export function deletions(word: string, depth: number): Set<string> {
  const forms = new Set([word]);
  let layer = [word];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const form of layer) {
      for (let i = 0; i < form.length; i++) {
        const shorter = form.slice(0, i) + form.slice(i + 1);
        if (!forms.has(shorter)) {
          forms.add(shorter);
          next.push(shorter);
        }
      }
    }
    layer = next;
  }
  return forms;
}

/**
 * A word list's typo corrector (SymSpell: two words within n edits share a form with at most n
 * letters deleted from each), for the glossary's words and the gazetteer's names. Lengths and
 * edits count UTF-16 units, as the deletions do.
 */
export class TypoCorrector {
  /** The one-word entries of TYPO_MIN_LENGTH+ letters by each of their forms with letters deleted. */
  private readonly byDeletion = new Map<string, string[]>();

  constructor(words: Iterable<string>) {
    for (const word of words) {
      if (word.includes(' ') || word.length < TYPO_MIN_LENGTH) continue;
      // two edits are tried for words of TWO_EDITS_MIN_LENGTH+ letters only: a word within two
      // edits of one has at least two letters fewer
      const depth = word.length >= TWO_EDITS_MIN_LENGTH - 2 ? 2 : 1;
      for (const variant of deletions(word, depth)) {
        const entries = this.byDeletion.get(variant);
        if (entries) entries.push(word);
        else this.byDeletion.set(variant, [word]);
      }
    }
  }

  /**
   * The entry closest to `word` within maxEditsOf its length (then the first in UTF-16 order),
   * or undefined. The deletions and distances are counted on `work`, stopping at its budget; the
   * candidates are tried as found, or in their order (`sorted`: which ones a spent budget leaves
   * untried).
   */
  closest(
    word: string,
    work: AnalysisWork,
    order: 'found' | 'sorted' = 'found',
  ): { word: string; edits: number } | undefined {
    const maxEdits = maxEditsOf(word.length);
    if (maxEdits === 0 || !isAnalysable(word)) return undefined;
    if (!work.spend(word, 'deletions', deletionCost(word.length, maxEdits))) return undefined;
    const found = new Set<string>();
    for (const variant of deletions(word, maxEdits)) {
      for (const candidate of this.byDeletion.get(variant) ?? []) found.add(candidate);
    }
    const candidates = order === 'sorted' ? [...found].sort() : found;
    let best: { word: string; edits: number } | undefined;
    for (const candidate of candidates) {
      if (Math.abs(candidate.length - word.length) > maxEdits) continue;
      if (!work.spend(word, 'edits', word.length * candidate.length)) break;
      const edits = editDistance(word, candidate, maxEdits, 'utf16');
      if (edits > maxEdits) continue;
      if (!best || edits < best.edits || (edits === best.edits && candidate < best.word)) {
        best = { word: candidate, edits };
      }
    }
    return best;
  }
}
