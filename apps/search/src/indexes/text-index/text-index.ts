import type { OfferFilter, OfferFilterColumns } from './offer-filters';
import { placeHitsOf } from './place-coverage';
import type { PlaceHits, PlaceQuery, PlaceRecorder } from './place-coverage';
import {
  ALL_FIELDS,
  coverageOf,
  EXACT_WEIGHT,
  factorOf,
  idfOf,
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
import { emptyOfferPlaces } from './offer-places';
import type { OfferPlaces } from './offer-places';

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
  /**
   * The places the search names, covered by where the offers are (place-coverage.ts; D-88b) when
   * the index knows it (TextIndex.places); absent: by their names only.
   */
  places?: PlaceQuery[];
  /**
   * The concept weight of the place words no term of the index covers (a town no offer names):
   * coverable only by where the offers are, so added to `coverable` when the index knows it.
   */
  placeCoverable?: number;
}

/** One place's hits in a search, with the part its word scores per offer (TextIndex.match). */
interface PlaceSource {
  query: PlaceQuery;
  hits: PlaceHits;
  factor: number;
}

/**
 * The stamps of the work arrays start again from 0 past this, long before 2^31 (a search takes
 * one per query word, and one).
 */
const MAX_STAMP = 0x3f000000;
/** The candidates are sorted when fewer than one offer in this many, else collected in one pass. */
const SORTED_CANDIDATES_SHARE = 64;

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
    /** Each offer's language by ordinal (LANGUAGE_CODES; 0 unknown); absent: every offer unknown. */
    readonly languages: Uint8Array = new Uint8Array(ids.length),
    /** Where each offer is, by ordinal (docs/decisions.md D-88); absent: no offer placed. */
    readonly places: OfferPlaces = emptyOfferPlaces(ids.length),
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
    const { pointStart, lat, lon, placeStart, places, placeIds } = this.places;
    for (const array of [pointStart, lat, lon, placeStart, places]) bytes += array.byteLength;
    // the ids: a string's header and its characters (ASCII), as the dictionary counts its terms
    for (const id of placeIds) bytes += 16 + id.length;
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
    return bytes + this.analyser.dictionary.bytes;
  }

  ordinalOf(id: string): number | undefined {
    return this.ordinalById.get(id);
  }

  /** The ordinal of each place id of `places` (built at the first search naming a place). */
  private placeOrdinals?: Map<string, number>;

  /**
   * The offers covering each place the query names by where they are (place-coverage.ts), with the
   * factor of its part: an exact form's weight times the idf of the offers covering it; none when
   * the index does not know where its offers are.
   */
  private placeSourcesOf(query: TextQuery): PlaceSource[] {
    const { places } = this;
    // an index none of whose offers is placed (a generation before AddOfferPlaces) knows nothing
    // of where its offers are: places are then covered by their names only
    if (places.placeIds.length === 0 || !query.places?.length) return [];
    this.placeOrdinals ??= new Map(places.placeIds.map((id, ordinal) => [id, ordinal]));
    return query.places.map((place) => {
      const hits = placeHitsOf(places, this.placeOrdinals!, place.place);
      const factor = factorOf(EXACT_WEIGHT, idfOf(Math.max(1, hits.ordinals.length), this.indexedOffers));
      return { query: place, hits, factor };
    });
  }

  /**
   * Whether an offer holds the place word `key` in its name or destination by one of its terms (a
   * place the offers name but where they are is not known): such a place is in the catalogue.
   */
  private namedWhereOffersAre(query: TextQuery, key: string): boolean {
    for (const term of query.terms) {
      if (!term.placeOnly || wordKey(term.word) !== key) continue;
      const list = this.postings.get(term.term);
      if (!list) continue;
      if (!list.fields) return list.ordinals.length > 0;
      for (let i = 0; i < list.fields.length; i++) if ((list.fields[i] & PLACE_FIELDS) !== 0) return true;
    }
    return false;
  }

  /**
   * Whether every place the query names holds no offer of the catalogue (none inside it, none naming
   * it where it is): the search then answers the offers near it only, or nothing (D-88b).
   */
  private everyPlaceOutside(query: TextQuery, sources: readonly PlaceSource[]): boolean {
    if (!sources.length) return false;
    const held = new Map<string, boolean>();
    for (const { query: place, hits } of sources) {
      const key = wordKey(place.word);
      held.set(key, (held.get(key) ?? false) || hits.holdsOffers);
    }
    for (const [key, holds] of held) if (holds || this.namedWhereOffersAre(query, key)) return false;
    return true;
  }

  /**
   * Every match of a search (apps/search/README.md, "The text side"): the offers holding a
   * selecting term and passing the filter, each scored as analysis/similarity.ts defines (per query
   * word its best form's part and concept weight, summed; the parts times the coverage).
   */
  match(query: TextQuery, filter?: OfferFilter): TextMatches {
    const sources = this.placeSourcesOf(query);
    // every place named outside the catalogue: the offers near it only (D-88b)
    const outside = this.everyPlaceOutside(query, sources);
    const stamp = this.nextSearch();
    const { seenStamp, partSum, covered, buffer } = this;
    // Candidates: the selecting terms' postings and the offers covering a place where they are,
    // passing the filter (seenStamp = stamp), and the offers found failing it (-stamp), each
    // checked once.
    let candidateCount = 0;
    const consider = (ordinals: Int32Array) => {
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
    };
    if (!outside) {
      for (const term of query.terms) {
        if (!term.selects) continue;
        const list = this.postings.get(term.term);
        if (list) consider(list.ordinals);
      }
    }
    for (const source of sources) consider(source.hits.ordinals);
    const candidates = this.inOrdinalOrder(candidateCount, stamp);
    this.scoreWords(query, stamp, sources);
    return this.scored(candidates, query, sources, undefined, outside);
  }

  /**
   * Scores the offers `ordinals` (ascending, distinct) as a search does, whether the query selects
   * them or not, and records each part each holds and each one's score (the explain mode).
   */
  explain(
    query: TextQuery,
    ordinals: Int32Array,
    recorder: ScoreRecorder & Partial<PlaceRecorder>,
  ): TextMatches {
    const sources = this.placeSourcesOf(query);
    const outside = this.everyPlaceOutside(query, sources);
    recorder.places?.(
      sources.map(({ query: place, hits }) => ({ place: place.place, holdsOffers: hits.holdsOffers, hits })),
      outside,
    );
    const stamp = this.nextSearch();
    const { seenStamp, partSum, covered } = this;
    for (const o of ordinals) {
      seenStamp[o] = stamp;
      partSum[o] = 0;
      covered[o] = 0;
    }
    this.scoreWords(query, stamp, sources, recorder);
    return this.scored(ordinals, query, sources, recorder, outside);
  }

  /**
   * Adds, per query word, each candidate's (seenStamp = stamp) best part and concept weight among
   * the word's terms to its sums (a word of one term adds them straight away).
   */
  private scoreWords(
    query: TextQuery,
    stamp: number,
    sources: readonly PlaceSource[],
    recorder?: ScoreRecorder & Partial<PlaceRecorder>,
  ): void {
    const byWord = new Map<string, number[]>();
    query.terms.forEach((term, t) => {
      if (!this.postings.has(term.term)) return;
      const key = wordKey(term.word);
      const terms = byWord.get(key);
      if (terms) terms.push(t);
      else byWord.set(key, [t]);
    });
    // a place's offers by where they are are one more form of its word
    const placesByWord = new Map<string, number[]>();
    sources.forEach((source, p) => {
      const key = wordKey(source.query.word);
      placesByWord.set(key, [...(placesByWord.get(key) ?? []), p]);
      if (!byWord.has(key)) byWord.set(key, []);
    });
    const { seenStamp, partSum, covered, buffer, wordStamp, wordPart, wordConceptWeight } = this;
    for (const [key, terms] of byWord) {
      const placeForms = placesByWord.get(key) ?? [];
      if (terms.length === 1 && placeForms.length === 0) {
        const t = terms[0];
        const { ordinals, impacts, fields } = this.postings.get(query.terms[t].term)!;
        const { factor, conceptWeight } = query.terms[t];
        // a place's form covers it only in the fields that say where the offer is
        const placeFields = query.terms[t].placeOnly === true && fields !== undefined ? fields : undefined;
        for (let i = 0; i < ordinals.length; i++) {
          const o = ordinals[i];
          if (seenStamp[o] !== stamp) continue;
          const part = partOf(factor, impacts[i]);
          partSum[o] += part;
          covered[o] +=
            placeFields === undefined || (placeFields[i] & PLACE_FIELDS) !== 0
              ? conceptWeight
              : PLACE_MENTION_CONCEPT;
          if (recorder !== undefined)
            recorder.part(o, t, part, fields === undefined ? ALL_FIELDS : fields[i]);
        }
        continue;
      }
      const wordMark = this.nextStamp();
      let touchedCount = 0;
      for (const t of terms) {
        const { ordinals, impacts, fields } = this.postings.get(query.terms[t].term)!;
        const { factor, conceptWeight } = query.terms[t];
        const placeFields = query.terms[t].placeOnly === true && fields !== undefined ? fields : undefined;
        for (let i = 0; i < ordinals.length; i++) {
          const o = ordinals[i];
          if (seenStamp[o] !== stamp) continue;
          const part = partOf(factor, impacts[i]);
          const weight =
            placeFields === undefined || (placeFields[i] & PLACE_FIELDS) !== 0
              ? conceptWeight
              : PLACE_MENTION_CONCEPT;
          if (recorder !== undefined)
            recorder.part(o, t, part, fields === undefined ? ALL_FIELDS : fields[i]);
          if (wordStamp[o] !== wordMark) {
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
      for (const p of placeForms) {
        const { query: place, hits, factor } = sources[p];
        const { ordinals, shares } = hits;
        for (let i = 0; i < ordinals.length; i++) {
          const o = ordinals[i];
          if (seenStamp[o] !== stamp) continue;
          const part = partOf(factor, shares[i]);
          const weight = place.conceptWeight * shares[i];
          if (recorder !== undefined) recorder.placePart?.(o, p, part, i);
          if (wordStamp[o] !== wordMark) {
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
   * keeps); an offer in the search's language scores the query's language factor times more.
   */
  private scored(
    ordinals: Int32Array,
    query: TextQuery,
    sources: readonly PlaceSource[],
    recorder?: ScoreRecorder,
    placesOutside = false,
  ): TextMatches {
    const { partSum, covered, languages } = this;
    const { language } = query;
    const coverable = query.coverable + (sources.length ? (query.placeCoverable ?? 0) : 0);
    const code = language !== undefined && language.factor !== 1 ? language.code : -1;
    const preferredFactor = language?.factor ?? 1;
    const scores = new Float64Array(ordinals.length);
    const coveredOf = new Float64Array(ordinals.length);
    for (let i = 0; i < ordinals.length; i++) {
      const o = ordinals[i];
      const coverage = coverageOf(covered[o], coverable);
      const factor = languages[o] === code ? preferredFactor : 1;
      scores[i] = scoreOf(partSum[o], coverage) * factor;
      coveredOf[i] = covered[o];
      if (recorder !== undefined) recorder.offer(o, coverage, scores[i], factor);
    }
    return new TextMatches(ordinals, scores, coveredOf, placesOutside);
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
export class TextMatches {
  constructor(
    /** Ascending. */
    readonly ordinals: Int32Array,
    readonly scores: Float64Array,
    /**
     * The concept weight each covers (its query words' highest `conceptWeight`, summed; a place
     * covered in part by where the offer is counts its share: place-coverage.ts).
     */
    readonly covered: Float64Array,
    /**
     * Every place the search names holds no offer of the catalogue (D-88b): the matches are the
     * offers near it only, and the semantic side brings none from elsewhere.
     */
    readonly placesOutside = false,
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
    private readonly covered: Float64Array,
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
