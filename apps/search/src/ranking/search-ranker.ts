import { explainSearch, queryConceptsOf } from '../indexes/text-index/text-explain';
import type { ExplainedPlace, ExplainTermRow, QueryConcept } from '../indexes/text-index/text-explain';
import type { ListingRow } from './listing-row';
import { placesOf } from './memory-listing';
import type { AnalysedListing } from './listing.service';
import type { FacetCounts } from '../request/listing-facets';
import type { RankingRequest } from '../request/listing-request';

export interface RankedRow extends ListingRow {
  _relevance_score: number;
  semantic_score: number;
  tsvector_score: number;
  /** Explain mode only: what the record's explanation is made of (travels/travels.mapper.ts, toExplanation). */
  explain?: RowExplanation;
}

/** Explain mode: how a ranked row got its scores. */
export interface RowExplanation {
  /** w of RRF as the ranking used it (0 for a full-text answer). */
  vectorWeight: number;
  k: number;
  semanticRank: number | null;
  textRank: number | null;
  /** The query terms the record holds (text-explain.ts), the counted form of each word first. */
  terms: ExplainTermRow[];
  /** The search's concepts (query words with a concept weight), in query order. */
  concepts: QueryConcept[];
  /** The search's language as guessed from its words, or null. */
  language: 'fr' | 'de' | 'en' | 'it' | null;
  /** The search's words that matched no form after correction (stop words aside), in query order. */
  unmatchedWords: string[];
  /** The places the search names, resolved against where the offers are (D-88b); absent: none. */
  places?: ExplainedPlace[];
}

/**
 * Explain mode (`request.explain`): the rows with their explanation, the page's terms read from the
 * text index the listing was scored in, by its analysed query; without it, the rows untouched.
 */
export function explainPage(
  listing: AnalysedListing,
  request: RankingRequest,
  rows: RankedRow[],
  explanationOf: (
    row: RankedRow,
  ) => Omit<RowExplanation, 'terms' | 'concepts' | 'language' | 'unmatchedWords' | 'places'>,
): RankedRow[] {
  if (!request.explain || !rows.length) return rows;
  const {
    rows: terms,
    concepts,
    language,
    unmatchedWords,
    places,
  } = explainedTermsOf(
    listing,
    request,
    rows.map((row) => row.id),
  );
  const byOffer = new Map<string, ExplainTermRow[]>();
  for (const term of terms) byOffer.set(term.id, [...(byOffer.get(term.id) ?? []), term]);
  return rows.map((row) => ({
    ...row,
    explain: {
      ...explanationOf(row),
      terms: byOffer.get(row.id) ?? [],
      concepts,
      language,
      unmatchedWords,
      places,
    },
  }));
}

export interface RankedPage {
  total: number;
  rows: RankedRow[];
  /** Only when the request asks for facets (D-81). */
  facets?: FacetCounts;
  /** Set when the answer is full text only (sent as `X-Search-Fallback`). */
  fallback?: 'fulltext';
}

/**
 * Ranks a non-blank search (the "search" branch of GET /travels). The module binds the hybrid
 * ranker (hybrid-ranker.ts: pgvector + full text merged by RRF), which keeps the full-text ranker
 * (full-text-ranker.ts) for its fallback. The request is complete (travels/travels-request.ts resolves its
 * defaults): a ranker reads no configuration.
 */
export interface SearchRanker {
  rank(request: RankingRequest): Promise<RankedPage>;
}

export const SEARCH_RANKER = Symbol('SEARCH_RANKER');

/** Explain mode: the terms each record of a page holds, and the search's concepts and language. */
export interface ExplainedTerms {
  rows: ExplainTermRow[];
  concepts: QueryConcept[];
  language: 'fr' | 'de' | 'en' | 'it' | null;
  /** The search's words that matched no form (QueryAnalyser.unmatchedWords), in query order. */
  unmatchedWords: string[];
  /** The places the search names, resolved against where the offers are (D-88b). */
  places: ExplainedPlace[];
}

/**
 * Explain mode: the query terms each offer `ids` of a ranked page holds, with their parts, as the
 * text index the page was scored in records them (text-explain.ts, TextIndex.explain), by the
 * analysed query it was scored by; and the search's concepts, language and unmatched words.
 */
export function explainedTermsOf(
  listing: AnalysedListing,
  request: RankingRequest,
  ids: string[],
): ExplainedTerms {
  const { query, index } = listing;
  const { language } = query;
  if (!ids.length) return { rows: [], concepts: [], language, unmatchedWords: [], places: [] };
  const placed = { ...query, expansion: { ...query.expansion, places: placesOf(query, request.tuning) } };
  const { rows, places } = explainSearch(index, placed, ids, {
    language,
    strength: request.tuning.languagePreference,
  });
  return {
    rows,
    concepts: queryConceptsOf(query),
    language,
    unmatchedWords: [...(query.unmatchedWords ?? [])],
    places,
  };
}
