import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../database/database-runtime';
import type { RankingRequest } from '../travels/travels-request';
import { requiredTokens, StemCache } from './query-analyser';
import { queryTermsOf } from './query-terms';
import type { QueryTerm } from './query-terms';
import type { TextIndex } from './text-index';

/**
 * A search's query terms (apps/search/README.md, "The text index in memory"): analysed in
 * TypeScript against the index's own terms (query-analyser.ts), with PostgreSQL's Snowball stems
 * of its words (fetched once per word, then cached: StemCache), weighed by BM25 (query-terms.ts).
 */
@Injectable()
export class QueryAnalysisService {
  private readonly stems: StemCache;

  constructor(@Inject(SEARCH_READER) dataSource: DataSource) {
    this.stems = new StemCache((text, values) => dataSource.query(text, values));
  }

  async termsOf(request: RankingRequest, index: TextIndex): Promise<QueryTerm[]> {
    const weights = request.tuning.expansionWeights;
    const stems = await this.stems.formsOf(requiredTokens(request.search, request.expansion, weights));
    const analysed = index.analyser.analyse(request.search, request.expansion, weights, stems);
    return queryTermsOf(analysed, index.indexedOffers);
  }
}
