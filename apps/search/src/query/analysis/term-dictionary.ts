import {
  ASCII_TRIGRAM_KEYS,
  collectTrigramKeys,
  SIMILARITY_THRESHOLD,
  similarityOf,
  type TrigramKey,
} from './string-metrics';
import { countsTowardsFrequency } from './similarity';
import { compareCodePoints } from './tokenizer';

/** The largest stamp of a similarWords call before the stamps start again from 0. */
const MAX_STAMP = 0x3fffffff;

/**
 * The terms of one generation of the text index and their document counts, built once per
 * generation, with what the analysis searches fast: exact lookup, and an inverted list of the
 * single-word terms (no space) per pg_trgm trigram, for typo candidates. Not reentrant:
 * `similarWords` uses work arrays (analyses are synchronous, one at a time).
 */
export class TermDictionary {
  /** Single-word terms in UTF-16 order. */
  private readonly words: string[];
  private readonly wordDocuments: Int32Array;
  /** How many distinct trigrams each word has. */
  private readonly trigramCounts: Int32Array;
  /**
   * The words holding each trigram, ascending: those of the trigram in slot s are
   * `trigramWords[trigramStarts[s]]` to `trigramWords[trigramStarts[s + 1] - 1]`.
   */
  private readonly slotByTrigram = new Map<TrigramKey, number>();
  private readonly trigramStarts: Int32Array;
  private readonly trigramWords: Int32Array;
  private readonly sharedStamp: Int32Array;
  private readonly sharedCount: Int32Array;
  private stamp = 0;

  private constructor(
    private readonly lookUp: (term: string) => number | undefined,
    /** How many offers hold a term outside their categories, where it differs from lookUp's count. */
    private readonly frequencies: ReadonlyMap<string, number>,
    /** How many terms (words and pairs). */
    readonly size: number,
    singleWords: string[],
  ) {
    this.words = singleWords.sort();
    const count = this.words.length;
    this.wordDocuments = new Int32Array(count);
    this.trigramCounts = new Int32Array(count);
    this.sharedStamp = new Int32Array(count);
    this.sharedCount = new Int32Array(count);
    // Two passes over the words' trigrams (computed twice rather than kept: less garbage): their
    // slots and how many words hold each, then the words of each slot. ASCII trigrams find their
    // slot through an array, the build's hot path.
    const asciiSlots = new Int32Array(ASCII_TRIGRAM_KEYS).fill(-1);
    const holders: number[] = [];
    const keys: TrigramKey[] = [];
    const slotOf = (key: TrigramKey): number => {
      if (typeof key === 'number' && key < ASCII_TRIGRAM_KEYS) return asciiSlots[key];
      return this.slotByTrigram.get(key) ?? -1;
    };
    for (let id = 0; id < count; id++) {
      const word = this.words[id];
      this.wordDocuments[id] = lookUp(word) ?? 0;
      const distinct = collectTrigramKeys(word, keys);
      this.trigramCounts[id] = distinct;
      for (let k = 0; k < distinct; k++) {
        const key = keys[k];
        let slot = slotOf(key);
        if (slot < 0) {
          slot = holders.length;
          holders.push(0);
          this.slotByTrigram.set(key, slot);
          if (typeof key === 'number' && key < ASCII_TRIGRAM_KEYS) asciiSlots[key] = slot;
        }
        holders[slot]++;
      }
    }
    this.trigramStarts = new Int32Array(holders.length + 1);
    for (let slot = 0; slot < holders.length; slot++) {
      this.trigramStarts[slot + 1] = this.trigramStarts[slot] + holders[slot];
    }
    this.trigramWords = new Int32Array(this.trigramStarts[holders.length]);
    const next = this.trigramStarts.slice(0, holders.length);
    for (let id = 0; id < count; id++) {
      const distinct = collectTrigramKeys(this.words[id], keys);
      for (let k = 0; k < distinct; k++) this.trigramWords[next[slotOf(keys[k])]++] = id;
    }
  }

  /**
   * From the text index's postings: a term's document count is its postings' length, its frequency
   * the postings outside the offers' categories (countsTowardsFrequency; every posting when its
   * fields are unknown).
   */
  static fromPostings(
    postings: ReadonlyMap<string, { ordinals: { length: number }; fields?: Uint8Array }>,
  ): TermDictionary {
    const singleWords: string[] = [];
    const frequencies = new Map<string, number>();
    for (const [term, list] of postings) {
      if (!term.includes(' ')) singleWords.push(term);
      if (list.fields === undefined) continue;
      let frequency = 0;
      for (const fields of list.fields) if (countsTowardsFrequency(fields)) frequency++;
      if (frequency !== list.ordinals.length) frequencies.set(term, frequency);
    }
    return new TermDictionary(
      (term) => postings.get(term)?.ordinals.length,
      frequencies,
      postings.size,
      singleWords,
    );
  }

  /** How many offers hold `term`; undefined when the index does not hold it. */
  documentsOf(term: string): number | undefined {
    return this.lookUp(term);
  }

  /**
   * How many offers hold `term` outside their categories (D-86: what the frequent-word rule
   * counts); undefined when the index does not hold it.
   */
  frequencyOf(term: string): number | undefined {
    return this.frequencies.get(term) ?? this.lookUp(term);
  }

  /** Bytes of the dictionary's typed arrays (its words and the trigrams' slots are strings and a Map). */
  get bytes(): number {
    const arrays = [
      this.wordDocuments,
      this.trigramCounts,
      this.trigramStarts,
      this.trigramWords,
      this.sharedStamp,
      this.sharedCount,
    ];
    return arrays.reduce((bytes, array) => bytes + array.byteLength, 0);
  }

  /** How many single-word terms (the candidates of typos and compound parts). */
  get wordCount(): number {
    return this.words.length;
  }

  wordAt(id: number): string {
    return this.words[id];
  }

  documentsAt(id: number): number {
    return this.wordDocuments[id];
  }

  /**
   * The single-word terms similar to `text` (pg_trgm's `term % text`: trigram similarity at least
   * `threshold`), found through the inverted lists of its trigrams: their ids. `afford` is asked
   * before each list is read, with its length; a list it refuses is not read (nor the rest).
   */
  similarWords(
    text: string,
    threshold = SIMILARITY_THRESHOLD,
    afford: (entries: number) => boolean = () => true,
  ): number[] {
    const grams: TrigramKey[] = [];
    const distinct = collectTrigramKeys(text, grams);
    if (!distinct) return [];
    if (this.stamp >= MAX_STAMP) {
      this.stamp = 0;
      this.sharedStamp.fill(0);
    }
    const stamp = ++this.stamp;
    const { sharedStamp, sharedCount } = this;
    const touched: number[] = [];
    const { trigramStarts, trigramWords } = this;
    for (const gram of grams) {
      const slot = this.slotByTrigram.get(gram);
      if (slot === undefined) continue;
      if (!afford(trigramStarts[slot + 1] - trigramStarts[slot])) break;
      for (let i = trigramStarts[slot]; i < trigramStarts[slot + 1]; i++) {
        const id = trigramWords[i];
        if (sharedStamp[id] !== stamp) {
          sharedStamp[id] = stamp;
          sharedCount[id] = 0;
          touched.push(id);
        }
        sharedCount[id]++;
      }
    }
    return touched.filter(
      (id) => similarityOf(sharedCount[id], distinct, this.trigramCounts[id]) >= threshold,
    );
  }
}

/** A term of the dictionary and how many offers hold it. */
export interface Counted {
  term: string;
  documents: number;
}

/**
 * Most offers first, then by term (code points): the order of typos and expansions; for compound
 * parts the order of equal counts is our choice.
 */
export function byDocuments(a: Counted, b: Counted): number {
  return b.documents - a.documents || compareCodePoints(a.term, b.term);
}
