import type { RankedMatch } from '../indexes/text-index/text-index';
import type { OfferFilter } from '../indexes/text-index/offer-filters';
import type { GenerationChanged, ListingRow } from './listing-row';
import type { SideRank } from './rrf-score';

/**
 * The semantic side of one hybrid search (D-51), answered where D-75 says: from the replica's
 * memory when it holds the vectors of the text index's generation (memory-semantic-side.ts,
 * MemorySemanticSide), else by a statement (statement-semantic-side.ts, StatementSemanticSide),
 * always the statement with SEARCH_VECTOR_INDEX=database. ListingService picks one per search.
 */
export interface SemanticSide {
  /** The filter the text side scores under (the memory side lists the passing offers once for both). */
  readonly offerFilter: OfferFilter | undefined;
  /**
   * The records nearest the query (and the text side's best, and the spelling neighbours), ranked
   * from 1, those at least `semanticFloor`; GENERATION_CHANGED when a statement read another
   * generation. Asked only when the side weighs something (`rrfVectorWeight` > 0).
   */
  ranked(textBest: readonly RankedMatch[], semanticFloor: number): Promise<SideRank[] | GenerationChanged>;
  /**
   * The query's embedding (pgvector's text form) for the page's records statement to compute
   * `semantic_score`; undefined when this side gives the page its scores (scorePage).
   */
  readonly pageEmbedding: string | undefined;
  /** Sets the page's `semantic_score`s when this side computes them (rows and ordinals in page order). */
  scorePage(rows: ListingRow[], ordinals: readonly number[]): void;
}
