import { PAIR_WORD } from '../analysis/query-words';
import { compareCodePoints, foldWords } from '../analysis/tokenizer';
import { QUERY_WORDS } from './query-limits';
import { textQueryOf } from './query-terms';
import type { QueryTerm } from './query-terms';
import { roundHalfEven, SCALE } from './text-index';
import type { TextIndex } from './text-index';

/** A row of the explain mode: one query term an offer of the page holds. */
export interface ExplainTermRow {
  id: string;
  /** The query word's number (analysis/query-words.ts: `i`, `-i` a compound's second part, `PAIR_WORD + i` a pair). */
  word: number;
  /** The query word (or pair of words) folded, as the text side split the search. */
  token: string | null;
  term: string;
  kind: string;
  weight: number;
  /** The term's part of the score, times 1e6 (an integer). */
  part: number;
  /** Whether the term is its word's best form for this offer (the one that counts). */
  best: boolean;
  /** Whether the query selects the offer (else its text score is 0). */
  matches: boolean;
  /** The share of the query the offer covers, at most 1 (the score's multiplier); null when nothing is coverable. */
  coverage: number | null;
  /** The offer's text score, as the text side computes it (null as coverage). */
  score: number | null;
  /** part / 1e6 × coverage: the term's share of the score when it counts (null as coverage). */
  contribution: number | null;
  /** Whether the term covers its word's concept (query-terms.ts, `concept`). */
  covers: boolean;
}

/** A concept of a search: its query word (number and folded token) and its weight. */
export interface QueryConcept {
  word: number;
  token: string;
  weight: number;
}

/** The concepts of a search (its query words of some concept weight), in query order. */
export function queryConceptsOf(terms: QueryTerm[], search: string): QueryConcept[] {
  const words = foldWords(search).slice(0, QUERY_WORDS);
  const weights = new Map<number, number>();
  for (const term of terms) {
    if (term.word >= PAIR_WORD || term.concept <= 0) continue;
    weights.set(term.word, Math.max(weights.get(term.word) ?? 0, term.concept));
  }
  return [...weights]
    .sort(([a], [b]) => Math.abs(a) - Math.abs(b) || b - a)
    .map(([word, weight]) => ({ word, token: tokenOf(words, word) ?? '', weight }));
}

/**
 * Explain mode (apps/search/README.md, "Explain mode"): every query term each offer `ids` holds,
 * read from the in-memory text index with the scoring's own numbers (TextIndex.match), so that they
 * add up to the scores that ranked the page:
 *
 * - per offer, query word and term: the term's `kind` and `weight` (a float4, given as its shortest
 *   decimal: 0.3, not 0.30000001…), its part (an integer: `round(factor × impact × SCALE)`) and
 *   whether it is the word's best form (the highest part; ties on term, then kind), which alone
 *   counts;
 * - per offer: whether the query selects it (`matches`: else its text score is 0, as the listings
 *   count it), the share of the query it covers (`coverage`, the score's multiplier) and its text
 *   `score`;
 * - `token`: the query word a term counts for, folded and split as the analyser splits the search
 *   (its first QUERY_WORDS words): word `i` is the i-th, `-i` the second part of the i-th (a
 *   compound), `1000 + i` the pair of the (i − 1)-th and i-th.
 *
 * Ordered by offer (as `ids`), then word (a compound's tail before its head, the pair last), best
 * form first, then part descending, then term. An id the index does not hold has no row.
 */
export function explainTerms(
  index: TextIndex,
  terms: QueryTerm[],
  search: string,
  ids: string[],
): ExplainTermRow[] {
  const words = foldWords(search).slice(0, QUERY_WORDS);
  const query = textQueryOf(terms);
  const coverable = query.coverable > 0 ? query.coverable : NaN;
  const rows: ExplainTermRow[] = [];
  for (const id of ids) {
    const ordinal = index.ordinalOf(id);
    if (ordinal === undefined) continue;
    const held: (ExplainTermRow & { cov: number; selects: boolean })[] = [];
    query.terms.forEach((scored, i) => {
      const impact = impactOf(index, scored.term, ordinal);
      if (impact === undefined) return;
      const term = terms[i];
      held.push({
        id,
        word: term.word,
        token: tokenOf(words, term.word),
        term: term.term,
        kind: term.kind,
        weight: shortestFloat4(term.weight),
        part: roundHalfEven(scored.factor * impact * SCALE),
        best: false,
        matches: false,
        coverage: null,
        score: null,
        contribution: null,
        covers: scored.cov > 0,
        cov: scored.cov,
        selects: scored.selects,
      });
    });
    let partSum = 0;
    let covSum = 0;
    let matches = false;
    const byWord = new Map<number, typeof held>();
    for (const row of held) {
      byWord.set(row.word, [...(byWord.get(row.word) ?? []), row]);
      if (row.selects) matches = true;
    }
    for (const forms of byWord.values()) {
      forms.sort(
        (a, b) => b.part - a.part || compareCodePoints(a.term, b.term) || a.kind.localeCompare(b.kind),
      );
      forms[0].best = true;
      partSum += forms[0].part;
      covSum += Math.max(...forms.map((form) => form.cov));
    }
    const coverage = Math.min(1, covSum / coverable);
    const score = (partSum / SCALE) * coverage;
    held.sort(
      (a, b) =>
        Math.abs(a.word % PAIR_WORD) - Math.abs(b.word % PAIR_WORD) ||
        a.word - b.word ||
        Number(b.best) - Number(a.best) ||
        b.part - a.part ||
        compareCodePoints(a.term, b.term),
    );
    for (const { cov: _cov, selects: _selects, ...row } of held) {
      rows.push({
        ...row,
        matches,
        coverage: nullIfNaN(coverage),
        score: nullIfNaN(score),
        contribution: nullIfNaN((row.part / SCALE) * coverage),
      });
    }
  }
  return rows;
}

/** The impact of `term`'s posting for the offer `ordinal`, if it holds the term. */
function impactOf(index: TextIndex, term: string, ordinal: number): number | undefined {
  const list = index.postings.get(term);
  if (!list) return undefined;
  const { ordinals } = list;
  let low = 0;
  let high = ordinals.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = ordinals[mid];
    if (value === ordinal) return list.impacts[mid];
    if (value < ordinal) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}

/** The query word (or pair) a word number counts for. */
function tokenOf(words: string[], word: number): string | null {
  if (word >= PAIR_WORD) {
    const first = words[word - PAIR_WORD - 2];
    const second = words[word - PAIR_WORD - 1];
    return first === undefined || second === undefined ? null : `${first} ${second}`;
  }
  return words[Math.abs(word) - 1] ?? null;
}

/** A float4 as its shortest decimal (PostgreSQL's `real::numeric`): Math.fround(0.3) → 0.3. */
export function shortestFloat4(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const decimal = Number(value.toPrecision(digits));
    if (Math.fround(decimal) === value) return decimal;
  }
  return value;
}

function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
