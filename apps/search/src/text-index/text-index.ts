import type { OfferFilter, OfferFilterColumns } from './offer-filters';
import { TermDictionary } from '../analysis/term-dictionary';
import { QueryAnalyser } from './query-analyser';

/** A term's postings, by ascending offer ordinal: the posting's BM25 term-frequency part (`impact`). */
export interface TermPostings {
  ordinals: Int32Array;
  /** `search_postings.impact` (real): kept as the same 32-bit floats, so scores are the SQL side's bits. */
  impacts: Float32Array;
}

/**
 * One query term as the text side scores it: `word` groups a query word's forms (a word scores its
 * best form), `factor` is weight × idf^1.5, `cov` the word's concept weight (an integer, 0 for a
 * pair or a stop word: query-terms.ts), `selects` whether holding it makes an offer a match.
 */
export interface ScoredTerm {
  word: number;
  term: string;
  factor: number;
  cov: number;
  selects: boolean;
}

/** A search's terms and the query's coverable total (the sum of its words' best `cov`). */
export interface TextQuery {
  terms: ScoredTerm[];
  coverable: number;
}

/** Scores are sums of integers (each part rounded to 1e-6): the same bits whatever order they are summed in. */
export const SCALE = 1_000_000;

/** PostgreSQL's `round(float8)`: to the nearest integer, halves to even (C's `rint`). */
export function roundHalfEven(value: number): number {
  const rounded = Math.round(value);
  return rounded - value === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}

/**
 * The text index of one generation of the catalogue, held in memory (apps/search/README.md, "The
 * text side"): offers by ordinal (their position in id order, so that ordinal order is the id
 * order ties are broken by), each term's postings as typed arrays, and the filterable fields as
 * columns. Immutable once built: a new generation is a new TextIndex, swapped in whole
 * (TextIndexService).
 */
export class TextIndex {
  /** Per-search work arrays, one entry per offer (searches are scored one at a time: scoring is synchronous). */
  private readonly wordStamp: Int32Array;
  private readonly wordPart: Float64Array;
  private readonly wordCov: Float64Array;
  private readonly seenStamp: Int32Array;
  private readonly partSum: Float64Array;
  private readonly covSum: Float64Array;
  /** Offers collected by a pass (the candidates, then each word's touched offers). */
  private readonly buffer: Int32Array;
  private stamp = 0;
  private readonly ordinalById: Map<string, number>;
  /** The analysis of a search against this generation's terms (query-analyser.ts). */
  readonly analyser: QueryAnalyser;

  constructor(
    /** `search_stats.generation`: which reindex wrote what this index holds. */
    readonly generation: string,
    /** Offer ids by ordinal, in byte order (`COLLATE "C"`). */
    readonly ids: string[],
    readonly postings: Map<string, TermPostings>,
    readonly filters: OfferFilterColumns,
    /** `search_stats.offers`: the offers the idf counts (those holding a term). */
    readonly indexedOffers: number,
    /** The ordinal of each id, when the caller has it already (the loader). */
    ordinalById?: Map<string, number>,
  ) {
    this.analyser = new QueryAnalyser(TermDictionary.fromPostings(postings));
    const offers = ids.length;
    this.wordStamp = new Int32Array(offers);
    this.wordPart = new Float64Array(offers);
    this.wordCov = new Float64Array(offers);
    this.seenStamp = new Int32Array(offers);
    this.partSum = new Float64Array(offers);
    this.covSum = new Float64Array(offers);
    this.buffer = new Int32Array(offers);
    this.ordinalById = ordinalById ?? new Map(ids.map((id, ordinal) => [id, ordinal]));
  }

  get offers(): number {
    return this.ids.length;
  }

  /** How many postings the index holds. */
  get postingCount(): number {
    let count = 0;
    for (const list of this.postings.values()) count += list.ordinals.length;
    return count;
  }

  /** Bytes of the typed arrays (postings and filter columns): the index's share of the heap. */
  get bytes(): number {
    let bytes = 0;
    for (const list of this.postings.values()) bytes += list.ordinals.byteLength + list.impacts.byteLength;
    for (const column of Object.values(this.filters)) {
      if (ArrayBuffer.isView(column)) bytes += column.byteLength;
    }
    return bytes + 7 * 8 * this.offers;
  }

  ordinalOf(id: string): number | undefined {
    return this.ordinalById.get(id);
  }

  /**
   * Every match of a search (apps/search/README.md, "The text side"): the offers holding a
   * selecting term and passing the filter; each covers, per query word it holds by any form, the
   * word's concept weight (its `tier`, the sum), and scores, per query word, its best form's part
   * `round(factor × impact × SCALE)`, summed, divided by SCALE and multiplied by the share of the
   * query's concept weight covered (NaN when nothing is coverable, which no floor keeps).
   */
  match(query: TextQuery, filter?: OfferFilter): TextMatches {
    if (this.stamp > 0x3f000000) {
      // stamps wrap long before 2^31 (a search takes one per query word, and one)
      this.stamp = 0;
      this.seenStamp.fill(0);
      this.wordStamp.fill(0);
    }
    const stamp = this.nextStamp();
    const { seenStamp, partSum, covSum, buffer } = this;
    // Candidates: the selecting terms' postings passing the filter (seenStamp = stamp), and the
    // offers found failing it (-stamp), each checked once.
    let candidateCount = 0;
    for (const term of query.terms) {
      if (!term.selects) continue;
      const list = this.postings.get(term.term);
      if (!list) continue;
      const { ordinals } = list;
      for (let i = 0; i < ordinals.length; i++) {
        const o = ordinals[i];
        const seen = seenStamp[o];
        if (seen === stamp || seen === -stamp) continue;
        if (filter && !filter(o)) {
          seenStamp[o] = -stamp;
          continue;
        }
        seenStamp[o] = stamp;
        partSum[o] = 0;
        covSum[o] = 0;
        buffer[candidateCount++] = o;
      }
    }
    const candidates = this.inOrdinalOrder(candidateCount, stamp);
    // Per query word, each candidate's best part and cov among the word's terms (a word of one
    // term adds its part and cov straight away).
    const byWord = new Map<number, ScoredTerm[]>();
    for (const term of query.terms) {
      if (!this.postings.has(term.term)) continue;
      const terms = byWord.get(term.word);
      if (terms) terms.push(term);
      else byWord.set(term.word, [term]);
    }
    const { wordStamp, wordPart, wordCov } = this;
    for (const terms of byWord.values()) {
      if (terms.length === 1) {
        const { ordinals, impacts } = this.postings.get(terms[0].term)!;
        const { factor, cov } = terms[0];
        for (let i = 0; i < ordinals.length; i++) {
          const o = ordinals[i];
          if (seenStamp[o] !== stamp) continue;
          partSum[o] += roundHalfEven(factor * impacts[i] * SCALE);
          covSum[o] += cov;
        }
        continue;
      }
      const wordMark = this.nextStamp();
      let touchedCount = 0;
      for (const term of terms) {
        const { ordinals, impacts } = this.postings.get(term.term)!;
        const { factor, cov } = term;
        for (let i = 0; i < ordinals.length; i++) {
          const o = ordinals[i];
          if (seenStamp[o] !== stamp) continue;
          const part = roundHalfEven(factor * impacts[i] * SCALE);
          if (wordStamp[o] !== wordMark) {
            wordStamp[o] = wordMark;
            wordPart[o] = part;
            wordCov[o] = cov;
            buffer[touchedCount++] = o;
          } else {
            if (part > wordPart[o]) wordPart[o] = part;
            if (cov > wordCov[o]) wordCov[o] = cov;
          }
        }
      }
      for (let i = 0; i < touchedCount; i++) {
        const o = buffer[i];
        partSum[o] += wordPart[o];
        covSum[o] += wordCov[o];
      }
    }
    const ordinals = candidates;
    const scores = new Float64Array(ordinals.length);
    const tiers = new Int32Array(ordinals.length);
    const coverable = query.coverable > 0 ? query.coverable : NaN;
    for (let i = 0; i < ordinals.length; i++) {
      const o = ordinals[i];
      scores[i] = (partSum[o] / SCALE) * Math.min(1, covSum[o] / coverable);
      tiers[i] = covSum[o];
    }
    return new TextMatches(ordinals, scores, tiers);
  }

  /**
   * The candidates (the first `count` of the buffer) by ordinal: sorted when few, else collected
   * by one pass over the stamps (a typed array's sort of 30,000 ordinals took 1–2 ms).
   */
  private inOrdinalOrder(count: number, stamp: number): Int32Array {
    if (count * 64 < this.offers) return this.buffer.slice(0, count).sort();
    const sorted = new Int32Array(count);
    const { seenStamp } = this;
    for (let o = 0, at = 0; at < count; o++) if (seenStamp[o] === stamp) sorted[at++] = o;
    return sorted;
  }

  /** A fresh stamp for the work arrays. */
  private nextStamp(): number {
    return ++this.stamp;
  }
}

/** A scored offer of the text side: its ordinal, score, and rank (1-based) among the kept. */
export interface RankedMatch {
  ordinal: number;
  score: number;
  rank: number;
}

/**
 * The matches of one search: every offer the query selects under the filters, with its score and
 * the concept weight it covers (its tier), by ordinal. Ranked by tier descending (an offer covering
 * more of the search first), then score descending, then ordinal (= id); `floor` keeps those
 * scoring at least it.
 */
export class TextMatches {
  constructor(
    /** Ascending. */
    readonly ordinals: Int32Array,
    readonly scores: Float64Array,
    /** The concept weight each covers (TextQuery's `cov` summed per query word). */
    readonly tiers: Int32Array,
  ) {}

  /** How many matches score at least `floor` (NaN scores never do). */
  countAtLeast(floor: number): number {
    let count = 0;
    for (let i = 0; i < this.scores.length; i++) if (this.scores[i] >= floor) count++;
    return count;
  }

  /** The score of an offer the query selects, else undefined. */
  scoreOf(ordinal: number): number | undefined {
    const at = this.indexOf(ordinal);
    return at < 0 ? undefined : this.scores[at];
  }

  /** The `wanted` best matches scoring at least `floor`, best first (ties by ordinal), ranked from 1. */
  best(wanted: number, floor: number): RankedMatch[] {
    const heap = new WorstFirstHeap(wanted, this.tiers, this.scores, this.ordinals);
    for (let i = 0; i < this.scores.length; i++) if (this.scores[i] >= floor) heap.offer(i);
    return heap
      .drain()
      .map((i, position) => ({ ordinal: this.ordinals[i], score: this.scores[i], rank: position + 1 }));
  }

  /**
   * The ranks of offers among the matches scoring at least `floor` (tier descending, then score
   * descending, then ordinal), for those that are such matches. One pass over the matches whatever
   * the number of offers asked (a hybrid search asks for its semantic side's hundred): each match is
   * placed among the asked ones by binary search, rather than every match being sorted.
   */
  ranksOf(ordinals: Iterable<number>, floor: number): Map<number, number> {
    const { scores, tiers } = this;
    const asked: { ordinal: number; at: number }[] = [];
    for (const ordinal of new Set(ordinals)) {
      const at = this.indexOf(ordinal);
      if (at >= 0 && scores[at] >= floor) asked.push({ ordinal, at });
    }
    const ranks = new Map<number, number>();
    if (asked.length === 0) return ranks;
    // ascending rank keys: (tier, score) ascending, then position (the ordinal order) ascending
    const keyOrder = (a: number, b: number) => tiers[a] - tiers[b] || scores[a] - scores[b];
    asked.sort((a, b) => keyOrder(a.at, b.at) || a.at - b.at);
    const askedAt = Int32Array.from(asked, (entry) => entry.at);
    // The first asked entry whose key is at least (or above) match i's.
    const firstAtLeast = (i: number, strictly: boolean) => {
      let low = 0;
      let high = askedAt.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        const order = keyOrder(askedAt[mid], i);
        if (order < 0 || (strictly && order === 0)) low = mid + 1;
        else high = mid;
      }
      return low;
    };
    // A kept match ranks before every asked entry of a lower key (a difference array over the
    // ascending asked keys: +1 from the first, −1 from the first of its key or higher), and
    // before the asked entries of its own key that come after it in ordinal order.
    const higherFrom = new Int32Array(asked.length + 1);
    const tiedFrom = new Int32Array(asked.length + 1);
    for (let i = 0; i < scores.length; i++) {
      if (!(scores[i] >= floor)) continue;
      const lower = firstAtLeast(i, false);
      higherFrom[0]++;
      higherFrom[lower]--;
      if (lower < asked.length && keyOrder(askedAt[lower], i) === 0) {
        const end = firstAtLeast(i, true);
        let first = lower;
        let last = end;
        while (first < last) {
          const mid = (first + last) >>> 1;
          if (askedAt[mid] > i) last = mid;
          else first = mid + 1;
        }
        tiedFrom[first]++;
        tiedFrom[end]--;
      }
    }
    let higher = 0;
    let tied = 0;
    for (let j = 0; j < asked.length; j++) {
      higher += higherFrom[j];
      tied += tiedFrom[j];
      ranks.set(asked[j].ordinal, higher + tied + 1);
    }
    return ranks;
  }

  private indexOf(ordinal: number): number {
    let low = 0;
    let high = this.ordinals.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const value = this.ordinals[mid];
      if (value === ordinal) return mid;
      if (value < ordinal) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}

/**
 * The best `capacity` entries (indexes into `tiers`/`scores`/`ordinals`) seen, as a binary heap
 * whose root is the worst kept: a lower tier, or the same tier and a lower score, or both the same
 * and a higher ordinal.
 */
class WorstFirstHeap {
  private readonly items: number[] = [];

  constructor(
    private readonly capacity: number,
    private readonly tiers: Int32Array,
    private readonly scores: Float64Array,
    private readonly ordinals: Int32Array,
  ) {}

  /** Whether entry a ranks below entry b. */
  private worse(a: number, b: number): boolean {
    const ta = this.tiers[a];
    const tb = this.tiers[b];
    if (ta !== tb) return ta < tb;
    const sa = this.scores[a];
    const sb = this.scores[b];
    return sa < sb || (sa === sb && this.ordinals[a] > this.ordinals[b]);
  }

  offer(entry: number): void {
    if (this.capacity <= 0) return;
    const { items } = this;
    if (items.length < this.capacity) {
      items.push(entry);
      this.up(items.length - 1);
    } else if (this.worse(items[0], entry)) {
      items[0] = entry;
      this.down(0);
    }
  }

  /** The kept entries, best first. */
  drain(): number[] {
    return [...this.items].sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
  }

  private up(at: number): void {
    const { items } = this;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.worse(items[at], items[parent])) break;
      [items[at], items[parent]] = [items[parent], items[at]];
      at = parent;
    }
  }

  private down(at: number): void {
    const { items } = this;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < items.length && this.worse(items[left], items[worst])) worst = left;
      if (right < items.length && this.worse(items[right], items[worst])) worst = right;
      if (worst === at) return;
      [items[at], items[worst]] = [items[worst], items[at]];
      at = worst;
    }
  }
}
