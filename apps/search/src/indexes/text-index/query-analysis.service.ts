import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SEARCH_READER } from '../../database/database-runtime';
import { QueryExpansionService } from '../../query/glossary/query-expansion.service';
import { StemCache } from '../../query/analysis/stems';
import { requiredTokens } from './query-analyser';
import { AnalysisWork } from '../../query/analysis/analysis-budget';
import { readQueryText } from '../../query/analysis/analysed-query';
import type { AnalysedQuery, QueryExpansion, QueryText } from '../../query/analysis/analysed-query';
import { isShortSearch } from '../../query/analysis/typos';
import { queryTermsOf } from './query-terms';
import type { TextIndex } from './text-index';
import type { TextSearch } from '../../query/analysis/text-search';

/** A search's text read once and what the glossary and the gazetteer make of it: no index needed. */
export interface QueryReading extends QueryText {
  readonly expansion: QueryExpansion;
}

/**
 * The analyzer of a search (apps/search/README.md, "The text index in memory"): `read` folds the
 * text once (analysis/analysed-query.ts, readQueryText) and expands its words (the glossary, the
 * synonyms, the gazetteer's places and the language guess: QueryExpansionService); `analyse`
 * turns that reading into the AnalysedQuery of one generation of the text index: a word the index
 * does not hold that misspells a place gains the place's names (withCorrectedPlaces), the words'
 * PostgreSQL Snowball stems are fetched once per word, then cached (StemCache), the analyser finds
 * the index's terms (query-analyser.ts), weighed by BM25 and by concept (query-terms.ts).
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

  /** The search's text folded once and expanded: the part of its analysis no generation changes. */
  read(search: string): QueryReading {
    const text = readQueryText(search);
    return { ...text, expansion: this.expansions.expand(text) };
  }

  /** The search read and analysed against `index` in one call (the tests' way in). */
  async analysedOf(request: TextSearch, index: TextIndex): Promise<AnalysedQuery> {
    return this.analyse(this.read(request.search), request, index);
  }

  /**
   * The search analysed against `index`; its words that matched no form (QueryAnalyser
   * .unmatchedWords: explain's `unmatched_words`) only when `request.explain` (D-65).
   */
  async analyse(reading: QueryReading, request: TextSearch, index: TextIndex): Promise<AnalysedQuery> {
    const weights = request.tuning.expansionWeights;
    const { analyser } = index;
    // the search's budget goes on from the expansion's work, afresh for each run of the search
    // (a search runs again when a new generation is loaded meanwhile): the same terms each time
    const own = { ...reading.expansion, work: reading.expansion.work?.copy() ?? new AnalysisWork() };
    const corrected =
      weights.place > 0
        ? this.expansions.withCorrectedPlaces(
            own,
            reading.words,
            (word) => analyser.dictionary.documentsOf(word) !== undefined,
          )
        : own;
    const { words } = reading;
    const stems = await this.stems.formsOf(requiredTokens(words, corrected, weights));
    const shortSearch = isShortSearch(words, stems);
    // a sentence's common words no rule knows: minor concepts (D-54 as amended)
    const plainWords = this.expansions.plainWordsOf(reading.text, words, corrected, shortSearch);
    const expansion = plainWords.length ? { ...corrected, plainWords } : corrected;
    const language = expansion.language?.language;
    const work = expansion.work ?? new AnalysisWork();
    const isRealWord = (word: string) => this.expansions.isRealWord(word, language, work);
    const analysed = analyser.analyse(words, expansion, weights, stems, shortSearch, isRealWord);
    const terms = queryTermsOf(analysed, index.indexedOffers, {
      words,
      genericWords: expansion.genericWords ?? [],
      placeWords: expansion.placeWords,
      placeNameWords: expansion.placeNameWords,
      functionWords: expansion.functionWords,
      fillerWords: expansion.fillerWords,
      plainWords: expansion.plainWords,
      hyphenPieces: expansion.hyphenPieces,
      softWords: expansion.softWords,
      activityWords: expansion.activityWords,
      shortSearch,
    });
    return {
      text: reading.text,
      words,
      allWords: reading.allWords,
      expansion,
      language: expansion.language?.language ?? null,
      stems,
      shortSearch,
      terms,
      ...(request.explain
        ? { unmatchedWords: analyser.unmatchedWords(words, analysed, expansion, stems) }
        : {}),
    };
  }
}
