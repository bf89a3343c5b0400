import { LRUCache } from 'lru-cache';
import { foldWords } from '../glossary/glossary';
import type { ExpandedTerm, QueryExpansion } from '../glossary/query-expander';
import { EXPANSIONS_PER_WORD, QUERY_WORDS } from './query-limits';
import { AnalysisWork, isAnalysable, MAX_SPLIT_WORDS } from './analysis-budget';
import type { ExpansionWeights } from '../travels/travels-request';

/**
 * The query analysis of the text side: the terms of the index a search is scored with. It began
 * as the SQL function `travel_query_terms` in TypeScript (migrations AddTextSide and
 * AddQueryExpansions) and follows it but where issue 37 changed the rules (compounds split into
 * real words only; the gazetteer's place names beside the glossary's words), step by step:
 * - the search folded and split (foldWords), its first `maxWords` words;
 * - per word its variants: the word and its French, German and English Snowball stems;
 * - pairs of adjacent words (no stop word) as the index pairs them (`phrase`, word 1000 + i);
 * - a repeated word is skipped; a stop word is looked up as its variants (`stop`); else its
 *   variants found (`exact`); else, unless the glossary knows it, the catalogue words within 1 or
 *   2 edits (`typo`, pg_trgm similarity then Levenshtein); else a split in two words of 4+
 *   letters the index holds (`compound`, the head as word i, the tail as word -i);
 * - then the expansions, at most `maxExpansions` index terms per query word (and 64 of places).
 * The typo and compound steps are bounded (analysis-budget.ts): a word longer than
 * MAX_ANALYSED_WORD_LENGTH is only looked up, the compounds of the first MAX_SPLIT_WORDS long
 * words only are tried, and each step counts its work on the search's AnalysisWork, stopping at
 * the word's or the search's budget.
 *
 * The dictionary (TermDictionary) holds the index's terms and their document counts
 * (`search_terms`); stems stay PostgreSQL's (`ts_lexize`), fetched and cached by StemCache, so
 * that the analysis itself is synchronous and pure.
 */

/** The kinds `travel_query_terms` gives (the explain mode derives `stem` elsewhere). */
export type AnalysedKind =
  | 'exact'
  | 'stop'
  | 'typo'
  | 'phrase'
  | 'compound'
  | 'glossary'
  | 'synonym'
  | 'place'
  | 'within'
  | 'narrower';

/** The kinds of a place's names (the gazetteer): capped apart from the glossary's words. */
const PLACE_KINDS = new Set<AnalysedKind>(['place', 'within']);
/** The most index terms of place names a query word gains (a region's towns, in their languages). */
const PLACE_EXPANSIONS_PER_WORD = 64;
/** The most index terms of narrower concepts a query word gains (heaviest, then most offers). */
const NARROWER_EXPANSIONS_PER_WORD = 24;

/** One row of `travel_query_terms`. */
export interface AnalysedTerm {
  /** The query word's position (1-based); -word: a compound's tail; 1000 + word: a pair ending at word. */
  word: number;
  term: string;
  /** How many offers hold the term (`search_terms.documents`). */
  documents: number;
  /** A PostgreSQL `real`: the float4 value (Math.fround), as the SQL gives it. */
  weight: number;
  kind: AnalysedKind;
}

/** What PostgreSQL's text search makes of a token (StemCache). */
export interface TokenForms {
  /** `(ts_lexize('travel_fr_stem', token))[1]`, null when it gives none. */
  fr: string | null;
  de: string | null;
  en: string | null;
  /** A stop word of the `french_stem`, `german_stem` or `english_stem` dictionaries. */
  stop: boolean;
}

/** The forms of each token an analysis needs (requiredTokens); throws for a token not fetched. */
export type StemsOf = (token: string) => TokenForms;

const STOP_WEIGHT = Math.fround(0.1);
const EXACT_WEIGHT = Math.fround(1);
const ONE_EDIT_WEIGHT = Math.fround(0.6);
const TWO_EDITS_WEIGHT = Math.fround(0.4);
const COMPOUND_WEIGHT = Math.fround(0.8);
const PHRASE_WEIGHT = Math.fround(0.5);
/** A pair of adjacent words is word 1000 + i. */
const PAIR_WORD = 1000;
const TYPO_MIN_LENGTH = 5;
const TWO_EDITS_MIN_LENGTH = 9;
const MAX_TYPOS = 5;
/** A compound is split into two words of 4+ letters each (a German joint "s" between them aside). */
const COMPOUND_MIN_LENGTH = 8;
const MIN_PART = 4;
/** pg_trgm's `%`: similarity at least `pg_trgm.similarity_threshold` (its default). */
export const SIMILARITY_THRESHOLD = 0.3;

/**
 * The terms of one generation of the text index and their document counts, built once per
 * generation, with what the analysis searches fast: exact lookup; the single-word terms (no
 * space) sorted for prefix search and, reversed, for suffix search; and an inverted list of them
 * per pg_trgm trigram, for typo candidates. Not reentrant: `similarWords` uses work arrays
 * (analyses are synchronous, one at a time).
 */
export class TermDictionary {
  /** Single-word terms in UTF-16 order (any lexicographic order keeps a prefix's terms together). */
  private readonly words: string[];
  private readonly wordDocuments: Int32Array;
  /** The single-word terms reversed (by code points), sorted. */
  private readonly reversedWords: string[];
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
    this.reversedWords = new Array<string>(count);
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
      this.reversedWords[id] = reverseCodePoints(word);
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
    this.reversedWords.sort();
  }

  /** From the text index's postings: a term's document count is its postings' length. */
  static fromPostings(postings: ReadonlyMap<string, { ordinals: { length: number } }>): TermDictionary {
    const singleWords: string[] = [];
    for (const term of postings.keys()) if (!term.includes(' ')) singleWords.push(term);
    return new TermDictionary((term) => postings.get(term)?.ordinals.length, postings.size, singleWords);
  }

  /** From `[term, documents]` pairs (`search_terms`). */
  static fromCounts(counts: Iterable<readonly [string, number]>): TermDictionary {
    const documents = new Map(counts);
    const singleWords: string[] = [];
    for (const term of documents.keys()) if (!term.includes(' ')) singleWords.push(term);
    return new TermDictionary((term) => documents.get(term), documents.size, singleWords);
  }

  /** How many offers hold `term`; undefined when the index does not hold it. */
  documentsOf(term: string): number | undefined {
    return this.lookUp(term);
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

  /** The single-word terms starting with `prefix` (`term LIKE prefix || '%'`): ids `from` to `to` (excluded). */
  startingWith(prefix: string): { from: number; to: number } {
    return prefixRange(this.words, prefix);
  }

  /** The single-word terms ending with `suffix` (`term LIKE '%' || suffix`). */
  endingWith(suffix: string): string[] {
    const { from, to } = prefixRange(this.reversedWords, reverseCodePoints(suffix));
    return this.reversedWords.slice(from, to).map(reverseCodePoints);
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
    if (this.stamp >= 0x3fffffff) {
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

/** The ids of the sorted `texts` starting with `prefix`. */
function prefixRange(texts: string[], prefix: string): { from: number; to: number } {
  let low = 0;
  let high = texts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (texts[mid] < prefix) low = mid + 1;
    else high = mid;
  }
  const from = low;
  // from `from` on, the texts starting with `prefix` come first
  high = texts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (texts[mid].startsWith(prefix)) low = mid + 1;
    else high = mid;
  }
  return { from, to: low };
}

/**
 * pg_trgm's trigrams of a text (`show_trgm`): each word (a run of letters and digits, lower case)
 * padded with two spaces in front and one behind, its runs of 3 characters, distinct. pg_trgm
 * stores a trigram holding a non-ASCII character as a 3-byte hash of it; here it stays the text
 * (the same sets unless two such trigrams collide in 24 bits).
 */
export function trigramsOf(text: string): string[] {
  const grams: string[] = [];
  for (const word of trigramWords(text)) {
    const characters = Array.from(`  ${word} `);
    for (let i = 0; i + 3 <= characters.length; i++) {
      const gram = characters[i] + characters[i + 1] + characters[i + 2];
      if (!grams.includes(gram)) grams.push(gram);
    }
  }
  return grams;
}

/** The words pg_trgm splits a text into (lower case); a term is mostly one already. */
function trigramWords(text: string): string[] {
  const lower = text.toLowerCase();
  if (PLAIN_WORD.test(lower)) return [lower];
  return Array.from(lower.matchAll(WORD_CHARACTERS), ([word]) => word);
}

const PLAIN_WORD = /^[a-z0-9]+$/;
const WORD_CHARACTERS = /[\p{L}\p{N}]+/gu;

/**
 * A trigram as the dictionary indexes it: a number when its characters are in the Basic
 * Multilingual Plane (no string to build and hash), else its text. One trigram, one key.
 */
type TrigramKey = number | string;

/** The distinct keys of `trigramsOf(text)`, written to `keys` from 0 (reused: no garbage); how many. */
function collectTrigramKeys(text: string, keys: TrigramKey[]): number {
  let count = 0;
  const add = (key: TrigramKey) => {
    for (let k = 0; k < count; k++) if (keys[k] === key) return;
    keys[count++] = key;
  };
  const addWord = (word: string) => {
    if (SURROGATE.test(word)) {
      for (const gram of trigramsOf(word)) add(gram);
      return;
    }
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const a = padded.charCodeAt(i);
      const b = padded.charCodeAt(i + 1);
      const c = padded.charCodeAt(i + 2);
      // ASCII: below 2^21, a small integer; else from 2^37 (a space is 32), never one of those
      add((a | b | c) < 0x80 ? (a << 14) | (b << 7) | c : a * 0x100000000 + b * 0x10000 + c);
    }
  };
  const lower = text.toLowerCase();
  if (PLAIN_WORD.test(lower)) addWord(lower);
  else for (const word of trigramWords(lower)) addWord(word);
  return count;
}

const SURROGATE = /[\ud800-\udfff]/;
/** The keys of ASCII trigrams: 3 characters of 7 bits. */
const ASCII_TRIGRAM_KEYS = 1 << 21;

/** pg_trgm's `similarity(a, b)`: shared trigrams over the trigrams of either, a float4. */
export function trigramSimilarity(a: string, b: string): number {
  const left = trigramsOf(a);
  const right = new Set(trigramsOf(b));
  return similarityOf(left.filter((gram) => right.has(gram)).length, left.length, right.size);
}

function similarityOf(shared: number, left: number, right: number): number {
  if (left <= 0 || right <= 0) return 0;
  return Math.fround(shared / (left + right - shared));
}

/**
 * fuzzystrmatch's `levenshtein(a, b)` (insertions, deletions and substitutions of characters,
 * each costing 1); with `max`, any distance above it is returned as max + 1 (stopping early).
 */
export function levenshtein(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  const source = Array.from(a);
  const target = Array.from(b);
  if (Math.abs(source.length - target.length) > max) return max + 1;
  let previous = Array.from({ length: target.length + 1 }, (_, j) => j);
  for (let i = 1; i <= source.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= target.length; j++) {
      const cost = source[i - 1] === target[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (current[j] < rowMin) rowMin = current[j];
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[target.length];
}

/** The terms' order of `ORDER BY term` under `COLLATE "C"`: UTF-8 bytes, that is code points. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** UTF-16 order but surrogates (characters past U+FFFF) after U+E000–U+FFFF, as in code point order. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}

function reverseCodePoints(text: string): string {
  if (SURROGATE.test(text)) return Array.from(text).reverse().join('');
  let reversed = '';
  for (let i = text.length - 1; i >= 0; i--) reversed += text[i];
  return reversed;
}

/** SQL's `length(text)`: characters, not UTF-16 units. */
function characterLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/**
 * The expanded terms the second overload receives: those whose kind weighs more than 0 (none: the
 * service called the first overload).
 */
function keptExpansions(expansion: QueryExpansion, weights: ExpansionWeights): ExpandedTerm[] {
  return expansion.terms.filter((term) => weights[term.kind] > 0);
}

/**
 * The words the text side may split as compounds (analysis-budget.ts): of 8+ letters and at most
 * MAX_ANALYSED_WORD_LENGTH, the first MAX_SPLIT_WORDS distinct ones.
 */
function splitWordsOf(words: string[]): Set<string> {
  const split = new Set<string>();
  for (const word of words) {
    if (split.size >= MAX_SPLIT_WORDS) break;
    if (characterLength(word) >= COMPOUND_MIN_LENGTH && isAnalysable(word)) split.add(word);
  }
  return split;
}

/**
 * The tokens whose stems an analysis of `search` needs (StemCache): each of its first `maxWords`
 * words; for a word the text side may split (splitWordsOf: 8+ letters, not too long, the first
 * few) each head and tail of a compound split (cuts 4 to length − 4, a head also without a joint
 * "s"); and, when the call passes expansions, their words and the query words they count for
 * (`travel_term_forms`).
 */
export function requiredTokens(
  search: string,
  expansion: QueryExpansion,
  weights: ExpansionWeights,
  maxWords = QUERY_WORDS,
): string[] {
  const tokens = new Set<string>();
  const words = foldWords(search).slice(0, maxWords);
  const split = splitWordsOf(words);
  for (const word of words) {
    tokens.add(word);
    if (!split.has(word)) continue;
    const characters = Array.from(word);
    for (let cut = MIN_PART; cut <= characters.length - MIN_PART; cut++) {
      const head = characters.slice(0, cut).join('');
      tokens.add(head);
      if (head.endsWith('s') && cut > MIN_PART) tokens.add(head.slice(0, -1));
      tokens.add(characters.slice(cut).join(''));
    }
  }
  for (const term of keptExpansions(expansion, weights)) {
    tokens.add(term.token);
    for (const word of term.term.split(' ')) if (word !== '') tokens.add(word);
  }
  return [...tokens];
}

/** `ARRAY[token, fr stem ?? token, de stem ?? token, en stem ?? token]`. */
function variantsOf(token: string, forms: TokenForms): string[] {
  return [token, forms.fr ?? token, forms.de ?? token, forms.en ?? token];
}

/**
 * `travel_term_forms(phrase)`: a word's variants; a phrase's pairs of adjacent words, each pair
 * stemmed by one stemmer, but those of two stop words (issue 37); null when the phrase has no
 * word, or no such pair.
 */
function termFormsOf(phrase: string, stems: StemsOf): string[] | null {
  const words = phrase
    .split(' ')
    .map((text, position) => ({ text, position }))
    .filter((word) => word.text !== '');
  if (!words.length) return null;
  if (words.length === 1) return variantsOf(words[0].text, stems(words[0].text));
  const pairs: string[] = [];
  for (const first of words) {
    const second = words.find((word) => word.position === first.position + 1);
    if (!second) continue;
    const firstForms = stems(first.text);
    const secondForms = stems(second.text);
    // two little words say nothing of the phrase ("vacances à la neige": not "a la")
    if (firstForms.stop && secondForms.stop) continue;
    const a = variantsOf(first.text, firstForms);
    const b = variantsOf(second.text, secondForms);
    for (let k = 0; k < 4; k++) pairs.push(`${a[k]} ${b[k]}`);
  }
  return pairs.length ? pairs : null;
}

/** A term found as a typo or a compound part. */
interface Candidate {
  term: string;
  documents: number;
}

/**
 * Most offers first, then by term (code points): the typos' and expansions' `ORDER BY`; for
 * compound parts, where SQL leaves the order of equal counts undefined, our choice.
 */
function byDocuments(a: Candidate, b: Candidate): number {
  return b.documents - a.documents || compareCodePoints(a.term, b.term);
}

/** Limits of the call (query-limits.ts: QUERY_WORDS, EXPANSIONS_PER_WORD). */
export interface QueryAnalyserLimits {
  maxWords: number;
  maxExpansions: number;
}

/**
 * `travel_query_terms` on one generation's dictionary: `analyse` gives the rows of the service's
 * call for a search, its expansion and its weights: the first overload when no expanded term's
 * kind weighs more than 0, else the second, given the known words and the expanded terms with
 * their kinds' weights.
 */
export class QueryAnalyser {
  constructor(
    readonly dictionary: TermDictionary,
    private readonly limits: QueryAnalyserLimits = {
      maxWords: QUERY_WORDS,
      maxExpansions: EXPANSIONS_PER_WORD,
    },
  ) {}

  /**
   * The rows of `travel_query_terms` for a search, in the order the function returns them (per
   * query word: its pair, then its own terms; then the expansions by word and rank).
   */
  analyse(
    search: string,
    expansion: QueryExpansion,
    weights: ExpansionWeights,
    stems: StemsOf,
  ): AnalysedTerm[] {
    const words = foldWords(search).slice(0, this.limits.maxWords);
    const split = splitWordsOf(words);
    const work = expansion.work ?? new AnalysisWork();
    const expanded = keptExpansions(expansion, weights);
    // the first overload (nothing expanded) knows no word
    const knownWords = new Set(expanded.length ? expansion.knownWords : []);
    const rows: AnalysedTerm[] = [];
    let previous: string[] | undefined;
    let previousStop = false;
    words.forEach((token, index) => {
      const word = index + 1;
      const forms = stems(token);
      const variants = variantsOf(token, forms);
      const { stop } = forms;
      if (previous && !stop && !previousStop) {
        const pairs = previous.map((first, k) => `${first} ${variants[k]}`);
        this.found(rows, PAIR_WORD + word, pairs, PHRASE_WEIGHT, 'phrase');
      }
      previous = variants;
      previousStop = stop;
      if (words.indexOf(token) < index) return;
      if (stop) {
        this.found(rows, word, variants, STOP_WEIGHT, 'stop');
        return;
      }
      if (this.found(rows, word, variants, EXACT_WEIGHT, 'exact') > 0) return;
      if (knownWords.has(token) || !isAnalysable(token)) return;
      const length = characterLength(token);
      if (length >= TYPO_MIN_LENGTH && this.typos(rows, word, token, variants, length, work) > 0) return;
      if (split.has(token)) this.compound(rows, word, token, stems, work);
    });
    if (expanded.length) rows.push(...this.expansions(words, expanded, weights, stems));
    return rows;
  }

  /** `SELECT ... FROM search_terms s WHERE s.term = ANY (terms)`: appends the terms found; how many. */
  private found(
    rows: AnalysedTerm[],
    word: number,
    terms: string[],
    weight: number,
    kind: AnalysedKind,
  ): number {
    let count = 0;
    terms.forEach((term, k) => {
      if (terms.indexOf(term) < k) return;
      const documents = this.dictionary.documentsOf(term);
      if (documents === undefined) return;
      rows.push({ word, term, documents, weight, kind });
      count++;
    });
    return count;
  }

  /**
   * The 5 closest catalogue words within 1 edit (2 from 9 letters): similar (pg_trgm `%`) to a
   * variant, at the least Levenshtein distance to one; closest, then most frequent, then by term.
   */
  private typos(
    rows: AnalysedTerm[],
    word: number,
    token: string,
    variants: string[],
    length: number,
    work: AnalysisWork,
  ): number {
    const { dictionary } = this;
    const maxEdits = length >= TWO_EDITS_MIN_LENGTH ? 2 : 1;
    const candidates = new Set<number>();
    const afford = (entries: number) => work.spend(token, 'trigrams', entries);
    for (const variant of new Set(variants)) {
      for (const id of dictionary.similarWords(variant, SIMILARITY_THRESHOLD, afford)) candidates.add(id);
    }
    const typos: (Candidate & { edits: number })[] = [];
    for (const id of candidates) {
      const term = dictionary.wordAt(id);
      // at most a row of cells per character of each variant (fewer: levenshtein stops early)
      if (
        !work.spend(token, 'edits', term.length * variants.reduce((sum, variant) => sum + variant.length, 0))
      )
        break;
      const edits = Math.min(...variants.map((variant) => levenshtein(term, variant, maxEdits)));
      if (edits <= maxEdits) typos.push({ term, documents: dictionary.documentsAt(id), edits });
    }
    typos.sort((a, b) => a.edits - b.edits || byDocuments(a, b));
    for (const typo of typos.slice(0, MAX_TYPOS)) {
      const weight = typo.edits === 1 ? ONE_EDIT_WEIGHT : TWO_EDITS_WEIGHT;
      rows.push({ word, term: typo.term, documents: typo.documents, weight, kind: 'typo' });
    }
    return Math.min(typos.length, MAX_TYPOS);
  }

  /**
   * A compound split into real words (apps/search/README.md, "Compounds"): the cuts leaving two
   * parts of 4+ letters, each a word the index holds as it is or as one of its French, German or
   * English stems (the head also without a German joint "s": "museums-"); of those, the cut whose
   * longer part is longest wins, then the first. The head's forms are rows of the word, the
   * tail's of -word. No prefix or suffix guessing: "Wintersport" is never "port".
   */
  private compound(
    rows: AnalysedTerm[],
    word: number,
    token: string,
    stems: StemsOf,
    work: AnalysisWork,
  ): void {
    const characters = Array.from(token);
    const length = characters.length;
    let best: { head: string[]; tail: string[]; longer: number } | undefined;
    for (let at = MIN_PART; at <= length - MIN_PART; at++) {
      // a cut builds both parts and looks up their forms
      if (!work.spend(token, 'splits', length)) break;
      const head = this.knownForms(characters.slice(0, at).join(''), stems, true);
      if (!head) continue;
      const tail = this.knownForms(characters.slice(at).join(''), stems, false);
      if (!tail) continue;
      // a joint "s" is no part's length: "winter|sport" before "winter(s)|port", by its cut
      const longer = Math.max(head.length, tail.length);
      if (!best || longer > best.longer) best = { head: head.forms, tail: tail.forms, longer };
    }
    if (!best) return;
    this.found(rows, word, best.head, COMPOUND_WEIGHT, 'compound');
    this.found(rows, -word, best.tail, COMPOUND_WEIGHT, 'compound');
  }

  /**
   * The forms of a compound's part the index holds (the part and its stems; a head also without a
   * joint "s", then its length without it), or undefined when it holds none.
   */
  private knownForms(
    part: string,
    stems: StemsOf,
    head: boolean,
  ): { forms: string[]; length: number } | undefined {
    const length = characterLength(part);
    const candidates: [string, number][] = [[part, length]];
    if (head && part.endsWith('s') && length > MIN_PART) candidates.push([part.slice(0, -1), length - 1]);
    for (const [candidate, candidateLength] of candidates) {
      const stemmed = stems(candidate);
      const forms: string[] = [];
      for (const form of [candidate, stemmed.fr, stemmed.de, stemmed.en]) {
        if (form && !forms.includes(form) && this.dictionary.documentsOf(form) !== undefined)
          forms.push(form);
      }
      if (forms.length) return { forms, length: candidateLength };
    }
    return undefined;
  }

  /**
   * The second overload's last statement: each expanded term looked up as `travel_term_forms`
   * (never one of its query word's own forms), counting for the first position of its query word;
   * per (word, term) the highest weight (DISTINCT ON; among equal weights of different kinds, an
   * order SQL leaves undefined, the expansion given first); per word the `maxExpansions` weighing
   * most, then held by the most offers, then by term.
   */
  private expansions(
    words: string[],
    expanded: ExpandedTerm[],
    weights: ExpansionWeights,
    stems: StemsOf,
  ): AnalysedTerm[] {
    const byWord = new Map<number, Map<string, AnalysedTerm>>();
    for (const expansion of expanded) {
      const position = words.indexOf(expansion.token) + 1;
      if (position === 0) continue;
      // a compound's second concept counts for its tail (word -i), as the analyser's own split
      const word = expansion.tail ? -position : position;
      const forms = termFormsOf(expansion.term, stems);
      const own = termFormsOf(expansion.token, stems);
      // `s.term <> ALL (NULL)` holds for no term
      if (!forms || !own) continue;
      const weight = Math.fround(weights[expansion.kind]);
      const terms = byWord.get(word) ?? new Map<string, AnalysedTerm>();
      byWord.set(word, terms);
      forms.forEach((term, k) => {
        if (forms.indexOf(term) < k || own.includes(term)) return;
        const documents = this.dictionary.documentsOf(term);
        if (documents === undefined) return;
        const kept = terms.get(term);
        if (!kept || weight > kept.weight)
          terms.set(term, { word, term, documents, weight, kind: expansion.kind });
      });
    }
    const rows: AnalysedTerm[] = [];
    for (const word of [...byWord.keys()].sort((a, b) => a - b)) {
      const ranked = [...byWord.get(word)!.values()].sort((a, b) => b.weight - a.weight || byDocuments(a, b));
      // a place's names and a narrower concept's words come on top of the glossary's words: a
      // region's towns are many, each rare; a broader concept includes several others
      const isPlace = (row: AnalysedTerm) => PLACE_KINDS.has(row.kind);
      const isNarrower = (row: AnalysedTerm) => row.kind === 'narrower';
      rows.push(
        ...ranked.filter((row) => !isPlace(row) && !isNarrower(row)).slice(0, this.limits.maxExpansions),
        ...ranked.filter(isNarrower).slice(0, NARROWER_EXPANSIONS_PER_WORD),
        ...ranked.filter(isPlace).slice(0, PLACE_EXPANSIONS_PER_WORD),
      );
    }
    return rows;
  }
}

/** Runs one SQL statement, returning its rows (a TypeORM DataSource's `query`, or pg's). */
export type SqlQuery = (text: string, values: unknown[]) => Promise<unknown[]>;

interface StemRow {
  token: string;
  fr: string | null;
  de: string | null;
  en: string | null;
  stop: boolean | null;
}

/** The Snowball stems of `travel_query_terms` and its stop-word test, for a list of tokens. */
const STEMS_SQL = `
  SELECT t AS token,
    (ts_lexize('travel_fr_stem', t))[1] AS fr,
    (ts_lexize('travel_de_stem', t))[1] AS de,
    (ts_lexize('travel_en_stem', t))[1] AS en,
    ts_lexize('french_stem', t) = '{}' OR ts_lexize('german_stem', t) = '{}'
      OR ts_lexize('english_stem', t) = '{}' AS stop
  FROM unnest($1::text[]) t`;

/**
 * PostgreSQL's stems of tokens (`ts_lexize`, exact by construction), fetched in one statement
 * for the tokens a search needs that are not cached, and kept in an LRU: a search whose tokens
 * were seen needs no SQL. Stems do not depend on the catalogue: the cache is never invalidated.
 */
export class StemCache {
  private readonly cache: LRUCache<string, TokenForms>;
  /** Tokens being fetched, so that concurrent searches fetch each once. */
  private readonly pending = new Map<string, Promise<Map<string, TokenForms>>>();
  /** How many statements were run (one per search with a token not cached). */
  statements = 0;

  constructor(
    private readonly query: SqlQuery,
    maxTokens = 100_000,
  ) {
    this.cache = new LRUCache({ max: maxTokens });
  }

  get size(): number {
    return this.cache.size;
  }

  /**
   * The forms of `tokens` (requiredTokens): those not cached fetched in one statement. The
   * function answers for these tokens even if the LRU evicts them meanwhile.
   */
  async formsOf(tokens: Iterable<string>): Promise<StemsOf> {
    const forms = new Map<string, TokenForms>();
    const missing: string[] = [];
    const waits = new Set<Promise<Map<string, TokenForms>>>();
    for (const token of new Set(tokens)) {
      const cached = this.cache.get(token);
      if (cached) {
        forms.set(token, cached);
        continue;
      }
      const pending = this.pending.get(token);
      if (pending) waits.add(pending);
      else missing.push(token);
    }
    if (missing.length) {
      const fetching = this.fetch(missing).finally(() => {
        for (const token of missing) this.pending.delete(token);
      });
      for (const token of missing) this.pending.set(token, fetching);
      waits.add(fetching);
    }
    for (const fetched of await Promise.all(waits)) {
      for (const [token, value] of fetched) forms.set(token, value);
    }
    return (token) => {
      const value = forms.get(token);
      if (!value) throw new Error(`the stems of "${token}" were not fetched (requiredTokens)`);
      return value;
    };
  }

  private async fetch(tokens: string[]): Promise<Map<string, TokenForms>> {
    this.statements++;
    const rows = (await this.query(STEMS_SQL, [tokens])) as StemRow[];
    const fetched = new Map<string, TokenForms>();
    for (const row of rows) {
      // Snowball dictionaries recognise every token: `stop` is never NULL (which the SQL would
      // read as neither a stop word nor a word to pair).
      const value: TokenForms = { fr: row.fr, de: row.de, en: row.en, stop: row.stop === true };
      fetched.set(row.token, value);
      this.cache.set(row.token, value);
    }
    return fetched;
  }
}
