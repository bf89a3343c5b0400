import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../database/database-runtime';
import { foldWords } from '../analysis/tokenizer';
import { QueryExpansionService } from '../glossary/query-expansion.service';
import { StemCache } from '../analysis/stems';
import { requiredTokens } from './query-analyser';
import { QUERY_WORDS } from '../analysis/query-limits';
import { AnalysisWork } from '../analysis/analysis-budget';
import { isShortSearch } from '../analysis/typos';
import { queryTermsOf } from './query-terms';
import type { QueryTerm } from './query-terms';
import type { TextIndex } from './text-index';
import type { TextSearch } from './text-search';

/**
 * A search's query terms (apps/search/README.md, "The text index in memory"): analysed in
 * TypeScript against the index's own terms (query-analyser.ts), with PostgreSQL's Snowball stems
 * of its words (fetched once per word, then cached: StemCache), weighed by BM25 and by concept
 * (query-terms.ts). A word the index does not hold that misspells a place gains the place's names
 * (QueryExpansionService.withCorrectedPlaces).
 */
@Injectable()
export class QueryAnalysisService {
  private readonly stems: StemCache;

  constructor(
    @Inject(SEARCH_READER) dataSource: DataSource,
    private readonly expansions: QueryExpansionService,
  ) {
    this.stems = new StemCache((text, values) => dataSource.query(text, values));
  }

  async termsOf(request: TextSearch, index: TextIndex): Promise<QueryTerm[]> {
    return (await this.analysisOf(request, index)).terms;
  }

  /**
   * The query terms of a search and the words of it that matched no form (QueryAnalyser
   * .unmatchedWords: explain's `unmatched_words`).
   */
  async analysisOf(
    request: TextSearch,
    index: TextIndex,
  ): Promise<{ terms: QueryTerm[]; unmatchedWords: string[] }> {
    const weights = request.tuning.expansionWeights;
    const { dictionary } = index.analyser;
    // the search's budget goes on from the expansion's work, afresh for each run of the search
    // (a search runs again when a new generation is loaded meanwhile): the same terms each time
    const own = { ...request.expansion, work: request.expansion.work?.copy() ?? new AnalysisWork() };
    const expansion =
      weights.place > 0
        ? this.expansions.withCorrectedPlaces(
            own,
            request.search,
            (word) => dictionary.documentsOf(word) !== undefined,
          )
        : own;
    const stems = await this.stems.formsOf(requiredTokens(request.search, expansion, weights));
    const analysed = index.analyser.analyse(request.search, expansion, weights, stems);
    const unmatchedWords = index.analyser.unmatchedWords(request.search, analysed, expansion, stems);
    const words = foldWords(request.search).slice(0, QUERY_WORDS);
    const terms = queryTermsOf(analysed, index.indexedOffers, {
      words,
      genericWords: expansion.genericWords ?? [],
      placeWords: expansion.placeWords,
      placeNameWords: expansion.placeNameWords,
      shortSearch: isShortSearch(words, stems),
    });
    return { terms, unmatchedWords };
  }
}
