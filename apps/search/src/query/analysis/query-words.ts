/**
 * Which query word a term of a search's analysis counts for (AnalysedTerm.word): the search's word
 * at `position` (1-based), the second part of that word split as a compound (`tail`), or the pair
 * of adjacent words ending at `position` (`pair`, a phrase).
 */
export interface QueryWord {
  readonly kind: 'word' | 'tail' | 'pair';
  readonly position: number;
}

export function sameWord(a: QueryWord, b: QueryWord): boolean {
  return a.kind === b.kind && a.position === b.position;
}

/** A query word as a key of a Map (one string per kind and position). */
export function wordKey(word: QueryWord): string {
  return `${word.kind} ${word.position}`;
}

/**
 * The order the analysis lists a search's expansions in and breaks ties between its words by:
 * compound tails first, the last word's first, then the words in query order, then the pairs.
 */
export function byAnalysisOrder(a: QueryWord, b: QueryWord): number {
  const rank = (word: QueryWord) => (word.kind === 'tail' ? -word.position : word.position);
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || rank(a) - rank(b);
}

const KIND_ORDER = { tail: 0, word: 1, pair: 2 } as const;
