import { toVectorLiteral } from '../embedding/embedding-provider';
import type { QueryText } from '../query/analysis/analysed-query';
import type { RankingRequest } from '../request/listing-request';
import { semanticSideSql } from '../sql/semantic-side';
import { offerFilterOf } from '../indexes/text-index/offer-filters';
import type { OfferFilter } from '../indexes/text-index/offer-filters';
import type { RankedMatch, TextIndex } from '../indexes/text-index/text-index';
import type { RunSql } from './listing-page';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged } from './listing-row';
import type { SideRank } from './rrf-score';
import type { SemanticSide } from './semantic-side';

/**
 * The semantic side answered by PostgreSQL (D-51): one statement given the text side's best ids
 * (sql/semantic-side.ts), run on a connection whose session carries the pgvector settings
 * (HybridListing); the page's records statement computes their
 * `semantic_score`. Used until the replica holds the vectors of the index's generation, and always
 * with SEARCH_VECTOR_INDEX=database (D-75).
 */
export class StatementSemanticSide implements SemanticSide {
  readonly offerFilter: OfferFilter | undefined;
  readonly pageEmbedding: string;

  constructor(
    private readonly request: RankingRequest,
    private readonly search: QueryText,
    private readonly index: TextIndex,
    private readonly run: RunSql,
    embedding: Float32Array,
  ) {
    this.offerFilter = offerFilterOf(request.filters, index.filters);
    this.pageEmbedding = toVectorLiteral(embedding);
  }

  async ranked(
    textBest: readonly RankedMatch[],
    semanticFloor: number,
  ): Promise<SideRank[] | GenerationChanged> {
    const { index } = this;
    const best = textBest.map((match) => index.ids[match.ordinal]);
    const request = { ...this.request, tuning: { ...this.request.tuning, semanticFloor } };
    const rows = await this.run(semanticSideSql(request, this.search, this.pageEmbedding, best));
    if (rows[0]?.generation !== index.generation) return GENERATION_CHANGED;
    return rows
      .filter((row) => row.id !== null)
      .map((row) => ({ ordinal: this.ordinalOf(row.id as string), rank: row.rank as number }));
  }

  /** The statement gives the page its scores. */
  scorePage(): void {}

  private ordinalOf(id: string): number {
    const ordinal = this.index.ordinalOf(id);
    if (ordinal === undefined)
      throw new Error(`offer ${id} is not in text index generation ${this.index.generation}`);
    return ordinal;
  }
}
