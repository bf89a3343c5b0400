import { OfferFacetCounter } from '../indexes/text-index/offer-facets';
import { offerFilterOf } from '../indexes/text-index/offer-filters';
import type { OfferFilter } from '../indexes/text-index/offer-filters';
import { holdsContentWord, textQueryOf } from '../indexes/text-index/query-terms';
import type { LanguagePreference, QueryTerm } from '../indexes/text-index/query-terms';
import type { AnalysedQuery } from '../query/analysis/analysed-query';
import type { TextIndex, TextSideMatches } from '../indexes/text-index/text-index';
import { pageOf, readPageRecords } from './listing-page';
import type { RunSql } from './listing-page';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged, ListingResult } from './listing-row';
import { fuseRanks } from './rrf-score';
import type { FusedRecord, SideRank } from './rrf-score';
import type { SemanticSide } from './semantic-side';
import type { FacetCounts } from '../request/listing-facets';
import type { RankingRequest, RankingTuning } from '../request/listing-request';

/**
 * Ranked listings whose text side is scored in the replica's in-memory text index (apps/search/
 * README.md, "The text index in memory"): the analysed query's terms (analysed against this index:
 * QueryAnalysisService) are scored in memory under the filters for every match, the semantic side
 * is the search's SemanticSide (memory or statement, D-75), the fusion is fuseRanks (rrf-score.ts),
 * and the page's records are read by id (listing-page.ts). Every statement reads the index's
 * generation: when one is not the in-memory index's, the listing answers GENERATION_CHANGED.
 */
export class MemoryListing {
  constructor(
    private readonly index: TextIndex,
    private readonly run: RunSql,
  ) {}

  /** The full-text ranking (the hybrid ranker's fallback): the text side alone, best first. */
  async byText(request: RankingRequest, query: AnalysedQuery): Promise<ListingResult | GenerationChanged> {
    const matches = this.matches(request, query, offerFilterOf(request.filters, this.index.filters));
    const floor = request.tuning.tsvectorFloor;
    const page = pageOf(matches.best(request.page.offset + request.page.limit, floor), request.page);
    const rows = await readPageRecords(
      this.run,
      this.index,
      request,
      page.map((match) => match.ordinal),
    );
    if (rows === GENERATION_CHANGED) return rows;
    return {
      total: matches.countAtLeast(floor),
      rows: page.map((match, i) => ({ ...rows[i], tsvector_score: match.score, position: match.rank })),
      ...this.facetsOf(request, floor, matches, []),
    };
  }

  /**
   * The hybrid ranking: RRF of the semantic side (`w`) and the text side (`1 − w`), a side of
   * weight 0 empty, ties on id; the total is the size of the union the page is cut from.
   */
  async hybrid(
    request: RankingRequest,
    query: AnalysedQuery,
    semantic: SemanticSide,
  ): Promise<ListingResult | GenerationChanged> {
    const { rrfVectorWeight: w, k, tsvectorFloor: floor, semanticCandidates } = request.tuning;
    const semanticFloor = semanticFloorOf(request, query.terms);
    const matches = this.matches(request, query, semantic.offerFilter);
    const wanted = request.page.offset + request.page.limit;
    const textBest = matches.best(Math.max(wanted, semanticCandidates), floor);
    const semanticRanks: SideRank[] | GenerationChanged =
      w > 0 && asksSomething(query)
        ? await semantic.ranked(textBest.slice(0, semanticCandidates), semanticFloor)
        : [];
    if (semanticRanks === GENERATION_CHANGED) return semanticRanks;
    const textSide = w < 1;
    const fusion = fuseRanks(
      w,
      k,
      textSide ? textBest.slice(0, wanted) : [],
      semanticRanks,
      textSide ? (ordinals) => matches.ranksOf(ordinals, floor) : undefined,
    );
    const page = pageOf(fusion.ranked, request.page);
    const ordinals = page.map((fused) => fused.ordinal);
    const rows = await readPageRecords(this.run, this.index, request, ordinals, semantic.pageEmbedding);
    if (rows === GENERATION_CHANGED) return rows;
    semantic.scorePage(rows, ordinals);
    return {
      total: (textSide ? matches.countAtLeast(floor) : 0) + fusion.semanticOnly,
      rows: page.map((fused, i) => ({
        ...rows[i],
        _relevance_score: fused.score,
        tsvector_score: scoreOrZero(matches.scoreOf(fused.ordinal)),
        ...(request.explain ? { semantic_rank: fused.semanticRank, text_rank: fused.textRank } : {}),
      })),
      ...this.facetsOf(request, floor, textSide ? matches : undefined, fusion.ranked),
    };
  }

  /**
   * The facets asked (D-81), counted over exactly the set the total counts: the text matches at
   * least `floor` (none when the text side weighs nothing) and the records the semantic side alone
   * ranks (`fused` without a text rank). Every record of that set is in hand, so the counts are
   * exact even when the total is bounded (SEARCH_TOTAL_EXACT_LIMIT).
   */
  private facetsOf(
    request: RankingRequest,
    floor: number,
    matches: TextSideMatches | undefined,
    fused: readonly FusedRecord[],
  ): { facets?: FacetCounts } {
    if (!request.facets) return {};
    const counter = new OfferFacetCounter(this.index.filters, request.facets);
    if (matches) matches.forEachAtLeast(floor, (ordinal) => counter.add(ordinal));
    for (const record of fused) if (record.textRank === null) counter.add(record.ordinal);
    return { facets: counter.counts(request.filters) };
  }

  /** Every match of the query's terms under the request's filters (`filter`), scored in memory by block as far as asked (D-90). */
  private matches(
    request: RankingRequest,
    query: AnalysedQuery,
    filter: OfferFilter | undefined,
  ): TextSideMatches {
    return this.index.matchByBlocks(
      textQueryOf(query.terms, languagePreferenceOf(query, request.tuning)),
      filter,
    );
  }
}

/**
 * Whether a search holds a word that is not a function word ("in the", "nei" ask for nothing: the
 * semantic side is not asked either, as the text side selects nothing for them).
 */
export function asksSomething(query: Pick<AnalysedQuery, 'words' | 'expansion'>): boolean {
  const functionWords = new Set(query.expansion.functionWords ?? []);
  return query.words.some((word) => !functionWords.has(word));
}

/**
 * The text the semantic side reads for a search none of whose content words matches and that holds
 * function words: its other words ("vvkqz pwxmz" for "vvkqz the pwxmz"), so that a function word
 * brings no offer by similarity either; undefined for every other search (its own text is read).
 */
export function contentTextOf(
  query: Pick<AnalysedQuery, 'words' | 'expansion' | 'terms'>,
): string | undefined {
  const functionWords = new Set(query.expansion.functionWords ?? []);
  if (!functionWords.size || holdsContentWord(query.terms)) return undefined;
  const content = query.words.filter((word) => !functionWords.has(word));
  return content.length ? content.join(' ') : undefined;
}

/** The search's guessed language and the strength of its preference (SEARCH_LANGUAGE_PREFERENCE). */
export function languagePreferenceOf(
  query: Pick<AnalysedQuery, 'language'>,
  tuning: Pick<RankingTuning, 'languagePreference'>,
): LanguagePreference {
  return { language: query.language, strength: tuning.languagePreference };
}

/** A text score as `tsvector_score` reports it: 0 for an offer the query does not select (or a NaN score). */
function scoreOrZero(score: number | undefined): number {
  return score === undefined || Number.isNaN(score) ? 0 : score;
}

/**
 * The semantic side's floor for a search: `semanticFloor`, raised to `noMatchSemanticFloor` when
 * the text side found no content word of it in any form, its function words aside
 * (apps/search/README.md, "Searches that match nothing"): a string of random letters then answers nothing, a real word only its close neighbours.
 */
export function semanticFloorOf(request: RankingRequest, terms: readonly QueryTerm[]): number {
  const { semanticFloor, noMatchSemanticFloor } = request.tuning;
  return holdsContentWord(terms) ? semanticFloor : Math.max(semanticFloor, noMatchSemanticFloor);
}
