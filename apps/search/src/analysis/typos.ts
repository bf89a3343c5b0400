import { AnalysisWork, deletionCost, isAnalysable } from './analysis-budget';
import { editDistance, SIMILARITY_THRESHOLD } from './string-metrics';
import { byDocuments, type Counted, type TermDictionary } from './term-dictionary';
import { characterLength } from './tokenizer';

/**
 * The typo rules of the analysis, one for the text side's index words, the glossary's words and
 * the gazetteer's names: a word of TYPO_MIN_LENGTH+ letters may be a misspelling within one edit,
 * of TWO_EDITS_MIN_LENGTH+ letters within two (editDistance). Two ways to find the candidates:
 * the index's words sharing trigrams with the word (indexTypos, pg_trgm's `%` as the retired SQL
 * found them), and a word list's forms with letters deleted (TypoCorrector, SymSpell).
 */

/** The shortest word that may be a misspelling (shorter ones are too easily another word). */
export const TYPO_MIN_LENGTH = 5;
/** The shortest word that may be a misspelling within two edits. */
export const TWO_EDITS_MIN_LENGTH = 9;
/** The most index words one query word's typos become. */
export const MAX_TYPOS = 5;

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
): Typo[] {
  const maxEdits = maxEditsOf(characterLength(token));
  if (maxEdits === 0) return [];
  const candidates = new Set<number>();
  const afford = (entries: number) => work.spend(token, 'trigrams', entries);
  for (const variant of new Set(variants)) {
    for (const id of dictionary.similarWords(variant, SIMILARITY_THRESHOLD, afford)) candidates.add(id);
  }
  const typos: Typo[] = [];
  for (const id of candidates) {
    const term = dictionary.wordAt(id);
    // at most a row of cells per character of each variant (fewer: editDistance stops early)
    if (!work.spend(token, 'edits', term.length * variants.reduce((sum, variant) => sum + variant.length, 0)))
      break;
    const edits = Math.min(...variants.map((variant) => editDistance(term, variant, maxEdits)));
    if (edits <= maxEdits) typos.push({ term, documents: dictionary.documentsAt(id), edits });
  }
  typos.sort((a, b) => a.edits - b.edits || byDocuments(a, b));
  return typos.slice(0, MAX_TYPOS);
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
