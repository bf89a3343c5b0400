import type { OfferFilter, OfferFilterColumns } from './offer-filters';
import {
  ALL_FIELDS,
  coverageOf,
  partOf,
  PLACE_FIELDS,
  PLACE_MENTION_CONCEPT,
  scoreOf,
} from '../../query/analysis/similarity';
import type { ScoreRecorder } from '../../query/analysis/similarity';
import { TermDictionary } from '../../query/analysis/term-dictionary';
import { wordKey } from '../../query/analysis/query-words';
import type { QueryWord } from '../../query/analysis/query-words';
import { QueryAnalyser } from './query-analyser';

/** A term's postings, by ascending offer ordinal: the posting's BM25 term-frequency part (`impact`). */
export interface TermPostings {
  ordinals: Int32Array;
  /**
   * `search_postings.impact` (real): kept as the same 32-bit floats, so that the parts are computed
   * from the very bits the reindex wrote.
   */
  impacts: Float32Array;
  /**
   * `search_postings.fields`: the `search_vector` fields (FIELD_BITS) the term occurs in, per
   * posting; absent when unknown (postings written before AddPostingFields: every field).
   */
  fields?: Uint8Array;
}

/** The languages an offer may be written in, as the per-offer column codes them (0: unknown). */
export const LANGUAGE_CODES = { fr: 1, de: 2, en: 3, it: 4 } as const;
export type OfferLanguage = keyof typeof LANGUAGE_CODES;

/** An offer's `language` as its code in the language column (0 for none or another). */
export function languageCodeOf(language: string | null | undefined): number {
  const code = (LANGUAGE_CODES as Record<string, number>)[language?.toLowerCase() ?? ''];
  return code ?? 0;
}

/**
 * One query term as the text side scores it (analysis/similarity.ts): `word` groups a query word's
 * forms (a word scores its best form), `factor` is weight × idf^IDF_EXPONENT, `conceptWeight` its
 * word's concept weight (0 for a pair or a stop word: query-terms.ts), `selects` whether holding it
 * makes an offer a match.
 */
export interface ScoredTerm {
  word: QueryWord;
  term: string;
  factor: number;
  conceptWeight: number;
  selects: boolean;
  /**
   * The term covers a place (PLACE_CONCEPT): only where the offer holds it in its name or
   * destination (PLACE_FIELDS); elsewhere it scores and counts as PLACE_MENTION_CONCEPT
   * (analysis/similarity.ts).
   */
  placeOnly?: boolean;
}

/** A search's terms and the query's coverable concept weight (the sum of its words' highest). */
export interface TextQuery {
  terms: ScoredTerm[];
  coverable: number;
  /**
   * The search's guessed language (LANGUAGE_CODES) and the factor of an offer written in it
   * (languageFactorOf); absent: no preference.
   */
  language?: { code: number; factor: number };
}

/**
 * The stamps of the work arrays start again from 0 past this, long before 2^31 (a search takes
 * one per query word, and one).
 */
const MAX_STAMP = 0x3f000000;
/** The candidates are sorted when fewer than one offer in this many, else collected in one pass. */
const SORTED_CANDIDATES_SHARE = 64;
/**
 * Block-max scoring (matchByBlocks, docs/decisions.md D-90): the offers are cut into blocks of
 * 2^BLOCK_SHIFT consecutive ordinals, and a search bounds each block's best key from its terms'
 * largest impacts there.
 */
const BLOCK_SHIFT = 7;
const BLOCK_SIZE = 1 << BLOCK_SHIFT;
/**
 * A term holding at least this many postings per block of the catalogue keeps its blocks' largest
 * impacts and first postings (TermBlocks, built on first use); a rarer term's are found per search
 * from its postings (cheaper than a pass over every block, and nothing held).
 */
const HELD_BLOCKS_POSTINGS_PER_BLOCK = 2;

/**
 * A common term's postings by block of ordinals: `max[b]` the largest impact of its postings in
 * block b (-Infinity: none), `start[b]` the index of its first posting in block b or after.
 */
interface TermBlocks {
  max: Float32Array;
  start: Int32Array;
  /** Whether every impact is at least 0 (what the bounds assume). */
  nonNegative: boolean;
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
  private readonly wordConceptWeight: Float64Array;
  private readonly seenStamp: Int32Array;
  private readonly partSum: Float64Array;
  private readonly covered: Float64Array;
  /** Offers collected by a pass (the candidates, then each word's touched offers). */
  private readonly buffer: Int32Array;
  private stamp = 0;
  /** Bytes of the common terms' blocks built so far (TermBlocks). */
  private heldBlockBytes = 0;
  private readonly ordinalById: Map<string, number>;
  /** How many blocks of BLOCK_SIZE ordinals the offers make. */
  readonly blockCount: number;
  /** The common terms' blocks (HELD_BLOCKS_POSTINGS_PER_BLOCK), by their postings, built on first use. */
  private readonly termBlocks = new WeakMap<TermPostings, TermBlocks>();
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
    /** Each offer's language by ordinal (LANGUAGE_CODES; 0 unknown); absent: every offer unknown. */
    readonly languages: Uint8Array = new Uint8Array(ids.length),
  ) {
    this.analyser = new QueryAnalyser(TermDictionary.fromPostings(postings));
    const offers = ids.length;
    this.wordStamp = new Int32Array(offers);
    this.wordPart = new Float64Array(offers);
    this.wordConceptWeight = new Float64Array(offers);
    this.seenStamp = new Int32Array(offers);
    this.partSum = new Float64Array(offers);
    this.covered = new Float64Array(offers);
    this.buffer = new Int32Array(offers);
    this.ordinalById = ordinalById ?? new Map(ids.map((id, ordinal) => [id, ordinal]));
    this.blockCount = (offers + BLOCK_SIZE - 1) >> BLOCK_SHIFT;
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

  /**
   * Bytes of the index's typed arrays (the `search_text_index_bytes` metric): the postings, the
   * filter columns, the per-search work arrays and the term dictionary's. The strings and maps
   * (offer ids, terms, the trigram slots) are heap beside them.
   */
  get bytes(): number {
    let bytes = 0;
    for (const list of this.postings.values())
      bytes += list.ordinals.byteLength + list.impacts.byteLength + (list.fields?.byteLength ?? 0);
    bytes += this.languages.byteLength;
    for (const column of Object.values(this.filters)) {
      if (ArrayBuffer.isView(column)) bytes += column.byteLength;
    }
    const work = [
      this.wordStamp,
      this.wordPart,
      this.wordConceptWeight,
      this.seenStamp,
      this.partSum,
      this.covered,
      this.buffer,
    ];
    for (const array of work) bytes += array.byteLength;
    return bytes + this.heldBlockBytes + this.analyser.dictionary.bytes;
  }

  ordinalOf(id: string): number | undefined {
    return this.ordinalById.get(id);
  }

  /**
   * Every match of a search (apps/search/README.md, "The text side"): the offers holding a
   * selecting term and passing the filter, each scored as analysis/similarity.ts defines (per query
   * word its best form's part and concept weight, summed; the parts times the coverage).
   */
  match(query: TextQuery, filter?: OfferFilter): TextMatches {
    const stamp = this.nextSearch();
    const { seenStamp, partSum, covered, buffer } = this;
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
        covered[o] = 0;
        buffer[candidateCount++] = o;
      }
    }
    const candidates = this.inOrdinalOrder(candidateCount, stamp);
    this.addWords(this.wordsOf(query, false), stamp);
    return this.scored(candidates, query);
  }

  /**
   * The matches of a search as `match` finds them, scored by block only as far as they are asked
   * (block-max scoring, docs/decisions.md D-90): the matches are collected (their number is the
   * total at a floor of 0, counted without scoring) and grouped by block of BLOCK_SIZE ordinals;
   * each block's best possible key (concept weight covered, score) is bounded from its terms'
   * largest impacts there; the page's best are found by scoring the blocks best bound first until
   * no block left can beat the worst kept. Every answer equals `match`'s (the unit tests compare
   * them); a query whose bounds would not hold (nothing coverable, a negative factor or impact) is
   * scored in full.
   */
  matchByBlocks(query: TextQuery, filter?: OfferFilter): TextSideMatches {
    if (
      !(query.coverable > 0) ||
      !((query.language?.factor ?? 1) >= 0) ||
      query.terms.some((term) => !(term.factor >= 0) || !(term.conceptWeight >= 0))
    )
      return this.match(query, filter);
    const stamp = this.nextSearch();
    const { seenStamp, buffer, blockCount } = this;
    const blockOffsets = new Int32Array(blockCount + 1);
    let count = 0;
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
        buffer[count++] = o;
        blockOffsets[(o >> BLOCK_SHIFT) + 1]++;
      }
    }
    // the matches grouped by block (a counting sort: within a block, in the order found)
    for (let b = 0; b < blockCount; b++) blockOffsets[b + 1] += blockOffsets[b];
    const ordinals = new Int32Array(count);
    const next = blockOffsets.slice(0, blockCount);
    for (let i = 0; i < count; i++) {
      const o = buffer[i];
      ordinals[next[o >> BLOCK_SHIFT]++] = o;
    }
    const words = this.wordsOf(query, true);
    const bounds = this.blockBounds(words, blockOffsets);
    if (bounds === undefined) return this.match(query, filter);
    return new BlockTextMatches(this, query, words, ordinals, blockOffsets, bounds.parts, bounds.covered);
  }

  /**
   * Per block, bounds of what its matches hold: the sum over the query words of the word's
   * largest part there (a word's best form's part is at most the largest of its forms' parts at
   * their largest impacts: a part is non-decreasing in the impact for a factor ≥ 0) and of the
   * largest concept weight its forms there may count. Undefined when an impact is negative.
   */
  private blockBounds(
    words: readonly BlockWord[],
    blockOffsets: Int32Array,
  ): { parts: Float64Array; covered: Float64Array } | undefined {
    const { blockCount } = this;
    const parts = new Float64Array(blockCount);
    const covered = new Float64Array(blockCount);
    const wordPart = new Float64Array(blockCount);
    const wordWeight = new Float64Array(blockCount);
    for (const word of words) {
      wordPart.fill(-1);
      wordWeight.fill(0);
      for (const { term, list, blocks } of word.terms) {
        const { factor } = term;
        const weight =
          term.placeOnly === true ? Math.max(term.conceptWeight, PLACE_MENTION_CONCEPT) : term.conceptWeight;
        if (blocks !== undefined) {
          if (!blocks.nonNegative) return undefined;
          const { max } = blocks;
          for (let b = 0; b < blockCount; b++) {
            if (max[b] === -Infinity || blockOffsets[b] === blockOffsets[b + 1]) continue;
            const part = partOf(factor, max[b]);
            if (part > wordPart[b]) wordPart[b] = part;
            if (weight > wordWeight[b]) wordWeight[b] = weight;
          }
          continue;
        }
        const { ordinals, impacts } = list;
        let block = -1;
        let largest = -Infinity;
        for (let i = 0; i <= ordinals.length; i++) {
          const b = i < ordinals.length ? ordinals[i] >> BLOCK_SHIFT : -2;
          if (b !== block) {
            if (block >= 0 && blockOffsets[block] !== blockOffsets[block + 1]) {
              const part = partOf(factor, largest);
              if (part > wordPart[block]) wordPart[block] = part;
              if (weight > wordWeight[block]) wordWeight[block] = weight;
            }
            block = b;
            largest = -Infinity;
          }
          if (i < ordinals.length) {
            const impact = impacts[i];
            if (!(impact >= 0)) return undefined;
            if (impact > largest) largest = impact;
          }
        }
      }
      for (let b = 0; b < blockCount; b++) {
        if (wordPart[b] < 0) continue;
        parts[b] += wordPart[b];
        covered[b] += wordWeight[b];
      }
    }
    return { parts, covered };
  }

  /** A common term's blocks (TermBlocks), built on first use; undefined for a rarer term. */
  private blocksOf(list: TermPostings): TermBlocks | undefined {
    const { blockCount } = this;
    if (list.ordinals.length < blockCount * HELD_BLOCKS_POSTINGS_PER_BLOCK) return undefined;
    let blocks = this.termBlocks.get(list);
    if (blocks) return blocks;
    const { ordinals, impacts } = list;
    const max = new Float32Array(blockCount).fill(-Infinity);
    const start = new Int32Array(blockCount + 1);
    let nonNegative = true;
    let b = 0;
    for (let i = 0; i < ordinals.length; i++) {
      const block = ordinals[i] >> BLOCK_SHIFT;
      while (b <= block) start[b++] = i;
      const impact = impacts[i];
      if (!(impact >= 0)) nonNegative = false;
      if (impact > max[block]) max[block] = impact;
    }
    while (b <= blockCount) start[b++] = ordinals.length;
    blocks = { max, start, nonNegative };
    this.termBlocks.set(list, blocks);
    this.heldBlockBytes += max.byteLength + start.byteLength;
    return blocks;
  }

  /**
   * Scores the matches `ordinals[from, to)`, all in block `block`, as `match` does (addWords, then
   * scoreInto: the same code), into `scores` and `covered` at the same positions. Synchronous: the
   * work arrays are this call's.
   */
  scoreBlock(
    query: TextQuery,
    words: readonly BlockWord[],
    block: number,
    ordinals: Int32Array,
    from: number,
    to: number,
    scores: Float64Array,
    coveredOut: Int32Array,
  ): void {
    const mark = this.nextStamp();
    const { seenStamp, partSum, covered } = this;
    for (let j = from; j < to; j++) {
      const o = ordinals[j];
      seenStamp[o] = mark;
      partSum[o] = 0;
      covered[o] = 0;
    }
    this.addWords(words, mark, block);
    this.scoreInto(query, ordinals, from, to, scores, coveredOut);
  }

  /** The query's terms the index holds, by query word (in the order of their first term). */
  private wordsOf(query: TextQuery, withBlocks: boolean): BlockWord[] {
    const words: BlockWord[] = [];
    const byWord = new Map<string, BlockWord>();
    query.terms.forEach((term, t) => {
      const list = this.postings.get(term.term);
      if (!list) return;
      const key = wordKey(term.word);
      let word = byWord.get(key);
      if (!word) {
        byWord.set(key, (word = { terms: [] }));
        words.push(word);
      }
      word.terms.push({ term, t, list, blocks: withBlocks ? this.blocksOf(list) : undefined });
    });
    return words;
  }

  /**
   * Scores the offers `ordinals` (ascending, distinct) as a search does, whether the query selects
   * them or not, and records each part each holds and each one's score (the explain mode).
   */
  explain(query: TextQuery, ordinals: Int32Array, recorder: ScoreRecorder): TextMatches {
    const stamp = this.nextSearch();
    const { seenStamp, partSum, covered } = this;
    for (const o of ordinals) {
      seenStamp[o] = stamp;
      partSum[o] = 0;
      covered[o] = 0;
    }
    this.addWords(this.wordsOf(query, false), stamp, undefined, recorder);
    return this.scored(ordinals, query, recorder);
  }

  /**
   * Adds, per query word, each candidate's (seenStamp = stamp) best part and concept weight among
   * the word's terms to its sums (a word of one term adds them straight away): of every posting, or
   * of those in block `block` alone.
   */
  private addWords(
    words: readonly BlockWord[],
    stamp: number,
    block?: number,
    recorder?: ScoreRecorder,
  ): void {
    const { seenStamp, partSum, covered, buffer, wordStamp, wordPart, wordConceptWeight } = this;
    const low = block === undefined ? 0 : block << BLOCK_SHIFT;
    const high = low + BLOCK_SIZE;
    for (const word of words) {
      const single = word.terms.length === 1;
      const wordMark = single ? 0 : this.nextStamp();
      let touchedCount = 0;
      for (const { term, t, list, blocks } of word.terms) {
        const { ordinals, impacts, fields } = list;
        let first = 0;
        let end = ordinals.length;
        if (block !== undefined) {
          first = blocks !== undefined ? blocks.start[block] : lowerBound(ordinals, low);
          end = blocks !== undefined ? blocks.start[block + 1] : lowerBound(ordinals, high, first);
        }
        const { factor, conceptWeight } = term;
        // a place's form covers it only in the fields that say where the offer is
        const placeFields = term.placeOnly === true && fields !== undefined ? fields : undefined;
        for (let i = first; i < end; i++) {
          const o = ordinals[i];
          if (seenStamp[o] !== stamp) continue;
          const part = partOf(factor, impacts[i]);
          const weight =
            placeFields === undefined || (placeFields[i] & PLACE_FIELDS) !== 0
              ? conceptWeight
              : PLACE_MENTION_CONCEPT;
          if (recorder !== undefined)
            recorder.part(o, t, part, fields === undefined ? ALL_FIELDS : fields[i]);
          if (single) {
            partSum[o] += part;
            covered[o] += weight;
          } else if (wordStamp[o] !== wordMark) {
            wordStamp[o] = wordMark;
            wordPart[o] = part;
            wordConceptWeight[o] = weight;
            buffer[touchedCount++] = o;
          } else {
            if (part > wordPart[o]) wordPart[o] = part;
            if (weight > wordConceptWeight[o]) wordConceptWeight[o] = weight;
          }
        }
      }
      for (let i = 0; i < touchedCount; i++) {
        const o = buffer[i];
        partSum[o] += wordPart[o];
        covered[o] += wordConceptWeight[o];
      }
    }
  }

  /**
   * The scored offers `ordinals` (NaN scores when nothing of the query is coverable, which no floor
   * keeps).
   */
  private scored(ordinals: Int32Array, query: TextQuery, recorder?: ScoreRecorder): TextMatches {
    const scores = new Float64Array(ordinals.length);
    const coveredOf = new Int32Array(ordinals.length);
    this.scoreInto(query, ordinals, 0, ordinals.length, scores, coveredOf, recorder);
    return new TextMatches(ordinals, scores, coveredOf);
  }

  /**
   * The scores and covered concept weights of the offers `ordinals[from, to)` from their sums
   * (addWords), at the same positions; an offer in the search's language scores the query's
   * language factor times more.
   */
  private scoreInto(
    query: TextQuery,
    ordinals: Int32Array,
    from: number,
    to: number,
    scores: Float64Array,
    coveredOf: Int32Array,
    recorder?: ScoreRecorder,
  ): void {
    const { partSum, covered, languages } = this;
    const { coverable, language } = query;
    const code = language !== undefined && language.factor !== 1 ? language.code : -1;
    const preferredFactor = language?.factor ?? 1;
    for (let i = from; i < to; i++) {
      const o = ordinals[i];
      const coverage = coverageOf(covered[o], coverable);
      const factor = languages[o] === code ? preferredFactor : 1;
      scores[i] = scoreOf(partSum[o], coverage) * factor;
      coveredOf[i] = covered[o];
      if (recorder !== undefined) recorder.offer(o, coverage, scores[i], factor);
    }
  }

  /**
   * The candidates (the first `count` of the buffer) by ordinal: sorted when few, else collected
   * by one pass over the stamps (a typed array's sort of 30,000 ordinals took 1–2 ms).
   */
  private inOrdinalOrder(count: number, stamp: number): Int32Array {
    if (count * SORTED_CANDIDATES_SHARE < this.offers) return this.buffer.slice(0, count).sort();
    const sorted = new Int32Array(count);
    const { seenStamp } = this;
    for (let o = 0, at = 0; at < count; o++) if (seenStamp[o] === stamp) sorted[at++] = o;
    return sorted;
  }

  /** The stamp of a new search, the work arrays' stamps cleared first when they reach MAX_STAMP. */
  private nextSearch(): number {
    if (this.stamp > MAX_STAMP) {
      this.stamp = 0;
      this.seenStamp.fill(0);
      this.wordStamp.fill(0);
    }
    return this.nextStamp();
  }

  /** A fresh stamp for the work arrays. */
  private nextStamp(): number {
    return ++this.stamp;
  }
}

/** A query word's terms the index holds, as block-max scoring reads them. */
interface BlockWord {
  /** `t`: the term's index in the query's terms (for the explain mode's recorder). */
  terms: { term: ScoredTerm; t: number; list: TermPostings; blocks: TermBlocks | undefined }[];
}

/** The first index at or after `from` whose value is at least `value` (`sorted` ascending). */
function lowerBound(sorted: Int32Array, value: number, from = 0): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * What a search asks of its text side's matches (memory-listing.ts): the page's best, the total,
 * the ranks of the semantic side's records, a record's score and the facets' set. TextMatches
 * scores every match first; BlockTextMatches (TextIndex.matchByBlocks) only as far as asked.
 */
export interface TextSideMatches {
  best(wanted: number, floor: number): RankedMatch[];
  countAtLeast(floor: number): number;
  ranksOf(ordinals: Iterable<number>, floor: number): Map<number, number>;
  scoreOf(ordinal: number): number | undefined;
  /** Calls `each` with the ordinal of every match scoring at least `floor`, in no given order. */
  forEachAtLeast(floor: number, each: (ordinal: number) => void): void;
}

/**
 * The matches of one search scored by block as far as asked (TextIndex.matchByBlocks; docs/
 * decisions.md D-90): the matches grouped by block of ordinals (`blockOffsets`), each block scored
 * at most once, on first need, into this object's arrays (so that a search may await between its
 * questions while others use the index's work arrays). Every answer is TextMatches's for the same
 * search: a block is skipped only when its bound (`boundParts`, `boundCovered`: no match of it can
 * hold more) shows that none of its matches can change the answer.
 */
export class BlockTextMatches implements TextSideMatches {
  private readonly scores: Float64Array;
  private readonly covered: Int32Array;
  private readonly scored: Uint8Array;
  /** Per block, the bound of its matches' concept weight covered (as ranked: an Int32) and score. */
  private readonly boundCovered: Int32Array;
  private readonly boundScores: Float64Array;
  /** How many blocks were scored (for the tests and the benchmark). */
  scoredBlocks = 0;

  constructor(
    private readonly index: TextIndex,
    private readonly query: TextQuery,
    private readonly words: readonly BlockWord[],
    /** The matches, grouped by block. */
    private readonly ordinals: Int32Array,
    private readonly blockOffsets: Int32Array,
    boundParts: Float64Array,
    boundCovered: Float64Array,
  ) {
    const count = ordinals.length;
    this.scores = new Float64Array(count);
    this.covered = new Int32Array(count);
    const blocks = blockOffsets.length - 1;
    this.scored = new Uint8Array(blocks);
    this.boundCovered = new Int32Array(blocks);
    this.boundScores = new Float64Array(blocks);
    const { coverable, language } = query;
    const preferredFactor = Math.max(1, language?.factor ?? 1);
    for (let b = 0; b < blocks; b++) {
      if (blockOffsets[b] === blockOffsets[b + 1]) continue;
      // the same operations as the score, on larger or equal operands, all ≥ 0: rounding is monotone
      this.boundCovered[b] = boundCovered[b];
      this.boundScores[b] = scoreOf(boundParts[b], coverageOf(boundCovered[b], coverable)) * preferredFactor;
    }
  }

  /** How many matches the search has (what the total is at a floor of 0: every score is ≥ 0). */
  get count(): number {
    return this.ordinals.length;
  }

  best(wanted: number, floor: number): RankedMatch[] {
    if (wanted <= 0) return [];
    const { ordinals, scores, covered, boundCovered, boundScores, blockOffsets } = this;
    const heap = new WorstFirstHeap(wanted, covered, scores, ordinals);
    const order = this.blocksAtLeast(floor);
    // best bound first; among equal bounds, lower ordinals first
    order.sort((a, b) => boundCovered[b] - boundCovered[a] || boundScores[b] - boundScores[a] || a - b);
    for (const b of order) {
      if (heap.full()) {
        const worst = heap.worst();
        const c = covered[worst];
        if (boundCovered[b] < c) break;
        if (boundCovered[b] === c) {
          const s = scores[worst];
          if (boundScores[b] < s) break;
          if (boundScores[b] === s && b << BLOCK_SHIFT > ordinals[worst]) break;
        }
      }
      this.score(b);
      for (let j = blockOffsets[b]; j < blockOffsets[b + 1]; j++) if (scores[j] >= floor) heap.offer(j);
    }
    return heap
      .drain()
      .map((j, position) => ({ ordinal: ordinals[j], score: scores[j], rank: position + 1 }));
  }

  countAtLeast(floor: number): number {
    if (floor <= 0) return this.ordinals.length;
    let count = 0;
    const { scores, blockOffsets } = this;
    for (const b of this.blocksAtLeast(floor)) {
      this.score(b);
      for (let j = blockOffsets[b]; j < blockOffsets[b + 1]; j++) if (scores[j] >= floor) count++;
    }
    return count;
  }

  forEachAtLeast(floor: number, each: (ordinal: number) => void): void {
    const { ordinals, scores, blockOffsets } = this;
    if (floor <= 0) {
      for (let j = 0; j < ordinals.length; j++) each(ordinals[j]);
      return;
    }
    for (const b of this.blocksAtLeast(floor)) {
      this.score(b);
      for (let j = blockOffsets[b]; j < blockOffsets[b + 1]; j++) if (scores[j] >= floor) each(ordinals[j]);
    }
  }

  scoreOf(ordinal: number): number | undefined {
    const at = this.indexOf(ordinal);
    if (at < 0) return undefined;
    this.score(ordinal >> BLOCK_SHIFT);
    return this.scores[at];
  }

  /**
   * As TextMatches.ranksOf: each asked match's rank among the matches at least `floor`. Only the
   * blocks whose bound reaches the lowest asked key are scored: a match of another block ranks
   * after every asked one.
   */
  ranksOf(asking: Iterable<number>, floor: number): Map<number, number> {
    const { scores, covered, ordinals, blockOffsets, boundCovered, boundScores } = this;
    const asked: { ordinal: number; at: number }[] = [];
    for (const ordinal of new Set(asking)) {
      const at = this.indexOf(ordinal);
      if (at < 0) continue;
      this.score(ordinal >> BLOCK_SHIFT);
      if (scores[at] >= floor) asked.push({ ordinal, at });
    }
    const ranks = new Map<number, number>();
    if (asked.length === 0) return ranks;
    const keyOrder = (a: number, b: number) => covered[a] - covered[b] || scores[a] - scores[b];
    asked.sort((a, b) => keyOrder(a.at, b.at) || a.ordinal - b.ordinal);
    const askedAt = Int32Array.from(asked, (entry) => entry.at);
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
    const higherFrom = new Int32Array(asked.length + 1);
    const tiedFrom = new Int32Array(asked.length + 1);
    const lowest = askedAt[0];
    const highest = askedAt[askedAt.length - 1];
    const lowestCovered = covered[lowest];
    const lowestScore = scores[lowest];
    for (const b of this.blocksAtLeast(floor)) {
      // no match of a block bounded below the lowest asked key ranks before an asked one
      if (boundCovered[b] < lowestCovered) continue;
      if (boundCovered[b] === lowestCovered && boundScores[b] < lowestScore) continue;
      this.score(b);
      for (let i = blockOffsets[b]; i < blockOffsets[b + 1]; i++) {
        if (!(scores[i] >= floor)) continue;
        if (keyOrder(i, lowest) < 0) continue;
        if (keyOrder(i, highest) > 0) {
          higherFrom[0]++;
          higherFrom[asked.length]--;
          continue;
        }
        const lower = firstAtLeast(i, false);
        higherFrom[0]++;
        higherFrom[lower]--;
        if (lower < asked.length && keyOrder(askedAt[lower], i) === 0) {
          // among the asked of the same key (ascending ordinals), those after match i
          const end = firstAtLeast(i, true);
          let first = lower;
          let last = end;
          while (first < last) {
            const mid = (first + last) >>> 1;
            if (ordinals[askedAt[mid]] > ordinals[i]) last = mid;
            else first = mid + 1;
          }
          tiedFrom[first]++;
          tiedFrom[end]--;
        }
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

  /** The blocks holding matches whose bound reaches `floor`, ascending. */
  private blocksAtLeast(floor: number): number[] {
    const { blockOffsets, boundScores } = this;
    const blocks: number[] = [];
    for (let b = 0; b < boundScores.length; b++)
      if (blockOffsets[b] !== blockOffsets[b + 1] && boundScores[b] >= floor) blocks.push(b);
    return blocks;
  }

  /** Scores block `b` unless it was already. */
  private score(b: number): void {
    if (this.scored[b] === 1) return;
    this.scored[b] = 1;
    this.scoredBlocks++;
    const { blockOffsets } = this;
    this.index.scoreBlock(
      this.query,
      this.words,
      b,
      this.ordinals,
      blockOffsets[b],
      blockOffsets[b + 1],
      this.scores,
      this.covered,
    );
  }

  /** Where match `ordinal` is held, or -1 when the search does not select it. */
  private indexOf(ordinal: number): number {
    const b = ordinal >> BLOCK_SHIFT;
    if (b < 0 || b >= this.scored.length) return -1;
    const { ordinals, blockOffsets } = this;
    for (let j = blockOffsets[b]; j < blockOffsets[b + 1]; j++) if (ordinals[j] === ordinal) return j;
    return -1;
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
 * the concept weight it covers, by ordinal. Ranked by concept weight covered descending (an offer
 * covering more of the search first), then score descending, then ordinal (= id); `floor` keeps
 * those scoring at least it.
 */
export class TextMatches implements TextSideMatches {
  constructor(
    /** Ascending. */
    readonly ordinals: Int32Array,
    readonly scores: Float64Array,
    /** The concept weight each covers (its query words' highest `conceptWeight`, summed). */
    readonly covered: Int32Array,
  ) {}

  /** How many matches score at least `floor` (NaN scores never do). */
  countAtLeast(floor: number): number {
    let count = 0;
    for (let i = 0; i < this.scores.length; i++) if (this.scores[i] >= floor) count++;
    return count;
  }

  forEachAtLeast(floor: number, each: (ordinal: number) => void): void {
    for (let i = 0; i < this.scores.length; i++) if (this.scores[i] >= floor) each(this.ordinals[i]);
  }

  /** The score of an offer the query selects, else undefined. */
  scoreOf(ordinal: number): number | undefined {
    const at = this.indexOf(ordinal);
    return at < 0 ? undefined : this.scores[at];
  }

  /** The `wanted` best matches scoring at least `floor`, best first (ties by ordinal), ranked from 1. */
  best(wanted: number, floor: number): RankedMatch[] {
    const heap = new WorstFirstHeap(wanted, this.covered, this.scores, this.ordinals);
    for (let i = 0; i < this.scores.length; i++) if (this.scores[i] >= floor) heap.offer(i);
    return heap
      .drain()
      .map((i, position) => ({ ordinal: this.ordinals[i], score: this.scores[i], rank: position + 1 }));
  }

  /**
   * The ranks of offers among the matches scoring at least `floor` (concept weight covered
   * descending, then score descending, then ordinal), for those that are such matches. One pass
   * over the matches whatever the number of offers asked (a hybrid search asks for its semantic
   * side's hundred): each match is placed among the asked ones by binary search, rather than every
   * match being sorted.
   */
  ranksOf(ordinals: Iterable<number>, floor: number): Map<number, number> {
    const { scores, covered } = this;
    const asked: { ordinal: number; at: number }[] = [];
    for (const ordinal of new Set(ordinals)) {
      const at = this.indexOf(ordinal);
      if (at >= 0 && scores[at] >= floor) asked.push({ ordinal, at });
    }
    const ranks = new Map<number, number>();
    if (asked.length === 0) return ranks;
    // ascending rank keys: (covered, score) ascending, then position (the ordinal order) ascending
    const keyOrder = (a: number, b: number) => covered[a] - covered[b] || scores[a] - scores[b];
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
    const lowest = askedAt[0];
    const highest = askedAt[askedAt.length - 1];
    for (let i = 0; i < scores.length; i++) {
      if (!(scores[i] >= floor)) continue;
      // most matches key below every asked entry (they rank after all of them) or above every one
      // (before all of them): no search among the asked
      if (keyOrder(i, lowest) < 0) continue;
      if (keyOrder(i, highest) > 0) {
        higherFrom[0]++;
        higherFrom[asked.length]--;
        continue;
      }
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
 * The best `capacity` entries (indexes into `covered`/`scores`/`ordinals`) seen, as a binary heap
 * whose root is the worst kept: a lower concept weight covered, or the same and a lower score, or
 * both the same and a higher ordinal.
 */
class WorstFirstHeap {
  private readonly items: number[] = [];

  constructor(
    private readonly capacity: number,
    private readonly covered: Int32Array,
    private readonly scores: Float64Array,
    private readonly ordinals: Int32Array,
  ) {}

  /** Whether entry a ranks below entry b. */
  private worse(a: number, b: number): boolean {
    const ca = this.covered[a];
    const cb = this.covered[b];
    if (ca !== cb) return ca < cb;
    const sa = this.scores[a];
    const sb = this.scores[b];
    return sa < sb || (sa === sb && this.ordinals[a] > this.ordinals[b]);
  }

  /** Whether the heap holds `capacity` entries (an entry must beat the worst to enter). */
  full(): boolean {
    return this.items.length >= this.capacity;
  }

  /** The worst kept entry (the heap must not be empty). */
  worst(): number {
    return this.items[0];
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
