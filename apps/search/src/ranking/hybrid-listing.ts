import { Injectable } from '@nestjs/common';
import type { RankingRequest } from '../request/listing-request';
import type { AnalysedQuery } from '../query/analysis/analysed-query';
import type { TextIndex } from '../indexes/text-index/text-index';
import { VectorIndexService } from '../indexes/vector-index/vector-index.service';
import type { RunSql } from './listing-page';
import type { GenerationChanged, ListingResult } from './listing-row';
import { contentTextOf, MemoryListing } from './memory-listing';
import { MemorySemanticSide } from './memory-semantic-side';
import { PgvectorSessions } from './pgvector-sessions';
import { StatementSemanticSide } from './statement-semantic-side';
import { TravelsRepository } from './travels.repository';

/**
 * One hybrid listing against the loaded text index (MemoryListing.hybrid), its semantic side chosen
 * as D-75 says and its statements run on the connection that side needs:
 * - the replica holds the vectors of the index's generation (VectorIndexService; never with
 *   SEARCH_VECTOR_INDEX=database): MemorySemanticSide, and the page's records, the one statement,
 *   on any connection of the pool;
 * - else StatementSemanticSide, its statement and the records' on one connection whose session
 *   carries the pgvector settings (PgvectorSessions); on any connection when the side weighs
 *   nothing (`rrfVectorWeight` 0: no statement scans the HNSW index).
 */
/** Embeds a text as the search's own embedding was; undefined when the provider cannot answer. */
export type EmbedContent = (text: string) => Promise<Float32Array | undefined>;

@Injectable()
export class HybridListing {
  constructor(
    private readonly vectorIndex: VectorIndexService,
    private readonly travels: TravelsRepository,
    private readonly sessions: PgvectorSessions,
  ) {}

  /**
   * The listing against `index`; its statements run through `counted` (ListingService counts them).
   * A search none of whose content words matches, but which holds function words, is embedded again
   * without them by `embedContent` (contentTextOf; the search's own embedding if it cannot be had).
   */
  async listAgainst(
    request: RankingRequest,
    index: TextIndex,
    query: AnalysedQuery,
    searchEmbedding: Float32Array,
    counted: (run: RunSql) => RunSql,
    embedContent?: EmbedContent,
  ): Promise<ListingResult | GenerationChanged> {
    const content = contentTextOf(query);
    const embedding =
      (content !== undefined && request.tuning.rrfVectorWeight > 0 && (await embedContent?.(content))) ||
      searchEmbedding;
    const vectors = this.vectorIndex.forGeneration(index.generation);
    const list = (run: RunSql) => {
      const semantic = vectors
        ? new MemorySemanticSide(request, query, index, vectors, embedding)
        : new StatementSemanticSide(request, query, index, run, embedding);
      return new MemoryListing(index, run).hybrid(request, query, semantic);
    };
    if (vectors || request.tuning.rrfVectorWeight === 0) return list(counted(this.travels.rowsOf));
    return this.sessions.run(request.tuning, (runInSession) =>
      list(counted(async (sql) => (await runInSession(sql.text, sql.values)) as Record<string, unknown>[])),
    );
  }
}
