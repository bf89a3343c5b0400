import { trigramSimilarity } from '../query/analysis/string-metrics';
import { compareCodePoints } from '../query/analysis/tokenizer';
import type { QueryText } from '../query/analysis/analysed-query';
import type { RankingRequest } from '../request/listing-request';
import { SPELLING_NEIGHBOUR_WORDS, SPELLING_NEIGHBOURS_PER_WORD } from '../sql/semantic-side';
import { offerFilterOf, passingOffersOf } from '../indexes/text-index/offer-filters';
import type { OfferFilter } from '../indexes/text-index/offer-filters';
import type { RankedMatch, TextIndex } from '../indexes/text-index/text-index';
import type { VectorIndex } from '../indexes/vector-index/vector-index';
import type { ListingRow } from './listing-row';
import type { SemanticSide } from './semantic-side';

/**
 * The semantic side answered from the replica's memory (D-75), when it holds the vectors of the
 * text index's generation: the offers passing the filters listed once for both sides
 * (filteredOffersOf), the side ranked by semanticSideInMemory, and the page's `semantic_score`s
 * from the same vectors, so the page's records statement computes none. One per search.
 */
export class MemorySemanticSide implements SemanticSide {
  readonly offerFilter: OfferFilter | undefined;
  readonly pageEmbedding = undefined;
  /** The offers passing the search's filters, when the side weighs something and there are filters. */
  private readonly filtered: FilteredOffers | undefined;
  /** The similarities the side has computed, by ordinal: the page's scores reuse them. */
  private readonly similarities = new Map<number, number>();

  constructor(
    private readonly request: RankingRequest,
    private readonly search: QueryText,
    private readonly index: TextIndex,
    private readonly vectors: VectorIndex,
    private readonly embedding: Float32Array,
  ) {
    const passing =
      request.tuning.rrfVectorWeight > 0 ? passingOffersOf(request.filters, index.filters) : undefined;
    this.filtered = passing && filteredOffersOf(passing);
    this.offerFilter = this.filtered ? this.filtered.filter : offerFilterOf(request.filters, index.filters);
  }

  ranked(textBest: readonly RankedMatch[], semanticFloor: number): Promise<SemanticMatch[]> {
    const best = textBest.map((match) => match.ordinal);
    const { request, search, index, vectors, embedding, filtered } = this;
    const matches = semanticSideInMemory(
      request,
      search,
      semanticFloor,
      index,
      vectors,
      embedding,
      best,
      filtered,
    );
    for (const match of matches) this.similarities.set(match.ordinal, match.similarity);
    return Promise.resolve(matches);
  }

  /**
   * The page's `semantic_score`s (the full-precision cosines pgvector's `1 − (embedding <=> query)`
   * gives): the side's, else computed for the record.
   */
  scorePage(rows: ListingRow[], ordinals: readonly number[]): void {
    const { similarities } = this;
    const missing = Int32Array.from(ordinals.filter((ordinal) => !similarities.has(ordinal)));
    const cosines = new Float64Array(missing.length);
    this.vectors.rescoring.cosines(this.embedding, missing, cosines);
    missing.forEach((ordinal, i) => similarities.set(ordinal, cosines[i]));
    rows.forEach((row, i) => (row.semantic_score = similarities.get(ordinals[i])!));
  }
}

/** A record of the semantic side: its ordinal, its rank (1-based) and its cosine similarity. */
export interface SemanticMatch {
  ordinal: number;
  rank: number;
  similarity: number;
}

/** A lexeme of the dictionary: letters and digits only (the statement's `^[[:alnum:]]+$`). */
const ALPHANUMERIC = /^[\p{L}\p{N}]+$/u;

/**
 * The semantic side of a hybrid search answered from the replica's memory, as sql/semantic-side.ts
 * answers it from PostgreSQL (docs/decisions.md D-51), without a statement: the union of
 * - the `semanticCandidates` offers nearest to `query` passing the filters (VectorIndex.nearest:
 *   exact int8 scoring re-scored at full precision, or the approximate index when the filters keep
 *   most offers);
 * - the text side's best (`textBest`, ordinals), at their exact distances;
 * - the offers holding a spelling neighbour of a search word (spellingNeighbours), passing the filters;
 * kept when their full-precision cosine is at least `semanticFloor`, ranked by it (then by ordinal:
 * the id order, as the statement's `ORDER BY distance, id`). `filtered`: the offers passing the
 * search's filters (filteredOffersOf), none when it has no filters.
 */
export function semanticSideInMemory(
  request: RankingRequest,
  search: QueryText,
  semanticFloor: number,
  text: TextIndex,
  vectors: VectorIndex,
  query: Float32Array,
  textBest: readonly number[],
  filtered: FilteredOffers | undefined,
): SemanticMatch[] {
  const { semanticCandidates } = request.tuning;
  const similarities = new Map<number, number>();
  const filter = filtered?.filter;
  const nearest = vectors.nearest(query, semanticCandidates, filtered?.ordinals);
  for (let i = 0; i < nearest.ordinals.length; i++)
    similarities.set(nearest.ordinals[i], nearest.similarities[i]);
  const others = new Set<number>(textBest);
  for (const ordinal of spellingNeighbours(request, search, text, filter)) others.add(ordinal);
  for (const ordinal of similarities.keys()) others.delete(ordinal);
  if (others.size > 0) {
    const ordinals = Int32Array.from(others);
    const cosines = new Float64Array(ordinals.length);
    vectors.rescoring.cosines(query, ordinals, cosines);
    ordinals.forEach((ordinal, i) => similarities.set(ordinal, cosines[i]));
  }
  const kept: { ordinal: number; similarity: number }[] = [];
  for (const [ordinal, similarity] of similarities) {
    if (similarity >= semanticFloor) kept.push({ ordinal, similarity });
  }
  kept.sort((a, b) => b.similarity - a.similarity || a.ordinal - b.ordinal);
  return kept.map(({ ordinal, similarity }, i) => ({ ordinal, rank: i + 1, similarity }));
}

/** The offers passing a search's filters, listed once per search for both sides. */
export interface FilteredOffers {
  /** Their ordinals, ascending (the vector side scores them). */
  ordinals: Int32Array;
  /** Whether an offer passes: one byte read (the text side tests each posting with it). */
  filter: OfferFilter;
}

/**
 * The offers passing a search's filters, from their bytes (passingOffersOf: the filters' columns
 * read once per offer, condition by condition): the text side, the vector side and the spelling
 * neighbours share the answer.
 */
export function filteredOffersOf(passing: Uint8Array): FilteredOffers {
  let count = 0;
  for (let o = 0; o < passing.length; o++) count += passing[o];
  // every ordinal written, the next one over it unless the offer passes: no branch to mispredict
  const ordinals = new Int32Array(count + 1);
  for (let o = 0, i = 0; i < count; o++) {
    ordinals[i] = o;
    i += passing[o];
  }
  return { ordinals: ordinals.subarray(0, count), filter: (o) => passing[o] === 1 };
}

/**
 * The offers passing the filters that hold a spelling neighbour of a search word (sql/semantic-side.ts's
 * `spelling_neighbours`, from the in-memory dictionary's trigram lists): for each of the first
 * SPELLING_NEIGHBOUR_WORDS distinct folded words of the search (QueryText.allWords) in lexeme order, the
 * SPELLING_NEIGHBOURS_PER_WORD single-word terms most similar to it by pg_trgm's similarity (at
 * least its threshold), then by term, held by at most `spellingNeighbourMaxDocuments` offers, and
 * not the word itself when the search has only it.
 */
export function spellingNeighbours(
  request: RankingRequest,
  search: Pick<QueryText, 'allWords'>,
  text: TextIndex,
  filter: OfferFilter | undefined,
): Set<number> {
  const found = new Set<number>();
  const maxDocuments = request.tuning.spellingNeighbourMaxDocuments;
  if (maxDocuments <= 0) return found;
  const words = search.allWords;
  const lexemes = [...new Set(words)].sort(compareCodePoints).slice(0, SPELLING_NEIGHBOUR_WORDS);
  const { dictionary } = text.analyser;
  const terms = new Set<string>();
  for (const lexeme of lexemes) {
    const neighbours: { term: string; similarity: number }[] = [];
    for (const id of dictionary.similarWords(lexeme)) {
      const term = dictionary.wordAt(id);
      if (dictionary.documentsAt(id) > maxDocuments || !ALPHANUMERIC.test(term)) continue;
      if (term === lexeme && words.length <= 1) continue;
      neighbours.push({ term, similarity: trigramSimilarity(term, lexeme) });
    }
    neighbours.sort((a, b) => b.similarity - a.similarity || compareCodePoints(a.term, b.term));
    for (const { term } of neighbours.slice(0, SPELLING_NEIGHBOURS_PER_WORD)) terms.add(term);
  }
  for (const term of terms) {
    const postings = text.postings.get(term);
    if (!postings) continue;
    for (const ordinal of postings.ordinals) if (!filter || filter(ordinal)) found.add(ordinal);
  }
  return found;
}
