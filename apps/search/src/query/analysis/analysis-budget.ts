/**
 * What one search's analysis may cost (docs/decisions.md D-72; apps/search/README.md,
 * "A search's cost is bounded"). The typo, compound, misspelt-place and language steps grow with
 * the square of a word's length (deletions, edit distances, cuts): a single 500-letter word took
 * 2.2–2.8 s of the event loop. Each step now counts its work here, before doing it, and stops when
 * the word's or the search's budget is spent; a word longer than MAX_ANALYSED_WORD_LENGTH is
 * matched as it is, without typo or compound work. Ordinary searches never reach a limit (the
 * unit test analyses every judged and typed search under them), so their ranking is unchanged.
 */

/**
 * The longest word (in characters, folded) that the typo, compound, misspelt-place and language
 * steps analyse; a longer one is looked up as it is (and by its stems). The longest real words of
 * the data are 20 letters (the multilingual catalogue's "huttenubernachtungen" and
 * "morteratschgletscher", the judged searches' "schneeschuhwanderung"; the glossary's longest 18,
 * the gazetteer's 19, the generated catalogue's 16): 32 leaves room for longer German compounds
 * ("gletscherwanderungswochenende", 29) and is still cheap at its square.
 */
export const MAX_ANALYSED_WORD_LENGTH = 32;

/**
 * The work one word may do in all steps together, in units (AnalysisWork): a character of a form
 * built (deletions, compound cuts), a cell of an edit distance, an entry of a trigram list read, a
 * character of a part or a misspelt form looked up (a word's forms with two adjacent letters
 * swapped; a 4-letter word's about 250 forms one edit away, about 1,300 units: analysis/typos.ts;
 * a spelling a dictionary checks, query/dictionary/real-words.ts: at most 1,378 units a search).
 * The costliest real word costs 17,082 units
 * ("schneeschuhwanderung": both SymSpell look-ups at two edits, its cuts, against the grown
 * multilingual catalogue and glossary; measured over the judged and typed searches by
 * analysis-budget.spec.ts); twice that, rounded up, stops a 32-letter word of random letters
 * early, never a real one.
 */
export const WORD_WORK_BUDGET = 36_000;

/**
 * The work a whole search may do (its first QUERY_WORDS words): the judged and typed searches cost
 * at most 17,082 units (15,973 before the real-word checks, the grown multilingual catalogue and
 * the glossary's new forms); three times the most, rounded up, leaves room for
 * three long unknown compounds in one search, and bounds 15 words of 32 random letters (485,150
 * units without a budget; one 500-letter word's deletions alone were 62 million). Past it every
 * remaining step is skipped: those words are matched as they are.
 */
export const SEARCH_WORK_BUDGET = 54_000;

/**
 * The words of 8+ letters (distinct, in search order) whose compound splits the text side tries and
 * whose parts' stems it fetches from PostgreSQL (each cut: a head and a tail, up to 50 tokens a
 * word). The judged searches hold at most 3 such words.
 */
export const MAX_SPLIT_WORDS = 4;

/**
 * The places one search resolves (docs/decisions.md D-88b): each place a name leads to (Zug is the
 * canton and the town) with its regions and members looked up once. The judged searches name at
 * most 2 places (a name of two places counting two); past the cap a name is still read as a place
 * by its names, but covers no offer by where it is.
 */
export const MAX_SEARCH_PLACES = 4;

/**
 * The passes over the offers' points one search makes (one per resolved place that has a point and
 * a radius: a pass reads every offer's points, about 1 ms at 100,000 offers).
 */
export const MAX_DISTANCE_PASSES = 4;

/** The steps whose work is counted (for the test and for reading a profile). */
export type AnalysisStep = 'deletions' | 'edits' | 'trigrams' | 'splits' | 'lookups';

/**
 * The work counter of one search's analysis, shared by its steps (the glossary's expansion, the
 * places, the language guess and the text side's analysis): each step asks `spend` before a piece
 * of work and stops when it answers false. Counted, not timed: the same search always costs the
 * same, on any machine.
 */
export class AnalysisWork {
  /** Units spent by the whole search. */
  total = 0;
  /** Units spent per step. */
  readonly bySteps: Record<AnalysisStep, number> = {
    deletions: 0,
    edits: 0,
    trigrams: 0,
    splits: 0,
    lookups: 0,
  };
  /** Units spent per word. */
  private readonly byWord = new Map<string, number>();
  /** How many times a step was refused (a budget reached). */
  refusals = 0;
  /** Places resolved (MAX_SEARCH_PLACES) and the distance passes they take (MAX_DISTANCE_PASSES). */
  placeLookups = 0;
  distancePasses = 0;

  constructor(
    readonly wordBudget = WORD_WORK_BUDGET,
    readonly searchBudget = SEARCH_WORK_BUDGET,
  ) {}

  /**
   * Spends `units` of `step` for `word` when both the word's and the search's budgets allow it
   * (true), else spends nothing (false: the step does not do that piece of work).
   */
  spend(word: string, step: AnalysisStep, units: number): boolean {
    const spent = this.byWord.get(word) ?? 0;
    if (spent + units > this.wordBudget || this.total + units > this.searchBudget) {
      this.refusals++;
      return false;
    }
    this.byWord.set(word, spent + units);
    this.total += units;
    this.bySteps[step] += units;
    return true;
  }

  /**
   * Counts one place resolved and, when it is covered by distance (`byDistance`), its pass over the
   * offers' points; false (nothing counted, a refusal) past MAX_SEARCH_PLACES, or past
   * MAX_DISTANCE_PASSES for a place by distance.
   */
  spendPlace(byDistance: boolean): boolean {
    if (
      this.placeLookups >= MAX_SEARCH_PLACES ||
      (byDistance && this.distancePasses >= MAX_DISTANCE_PASSES)
    ) {
      this.refusals++;
      return false;
    }
    this.placeLookups++;
    if (byDistance) this.distancePasses++;
    return true;
  }

  /** A counter that goes on from this one's state (this one unchanged). */
  copy(): AnalysisWork {
    const copy = new AnalysisWork(this.wordBudget, this.searchBudget);
    copy.total = this.total;
    copy.refusals = this.refusals;
    copy.placeLookups = this.placeLookups;
    copy.distancePasses = this.distancePasses;
    Object.assign(copy.bySteps, this.bySteps);
    for (const [word, spent] of this.byWord) copy.byWord.set(word, spent);
    return copy;
  }

  /** The most any word spent. */
  get maxWord(): number {
    let max = 0;
    for (const spent of this.byWord.values()) if (spent > max) max = spent;
    return max;
  }
}

/** Whether the typo, compound, misspelt-place and language steps analyse a word at all. */
export function isAnalysable(word: string): boolean {
  // characters, not UTF-16 units; a word of more units than twice the limit has more characters too
  if (word.length <= MAX_ANALYSED_WORD_LENGTH) return true;
  if (word.length > 2 * MAX_ANALYSED_WORD_LENGTH) return false;
  let length = 0;
  for (const _ of word) if (++length > MAX_ANALYSED_WORD_LENGTH) return false;
  return true;
}

/**
 * How many forms `deletions(word, depth)` builds and their characters, an upper bound: a word of n
 * letters has n forms one letter shorter and n(n−1)/2 two letters shorter.
 */
export function deletionCost(length: number, depth: number): number {
  const one = length * Math.max(length - 1, 0);
  const two = depth >= 2 ? ((length * (length - 1)) / 2) * Math.max(length - 2, 0) : 0;
  return length + one + two;
}
