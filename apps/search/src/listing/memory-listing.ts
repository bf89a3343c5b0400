import type { Sql } from '@rt/database';
import { offerFilterOf, passingOffersOf } from '../text-index/offer-filters';
import { textQueryOf } from '../text-index/query-terms';
import type { LanguagePreference, QueryTerm } from '../text-index/query-terms';
import type { AnalysedQuery } from '../analysis/analysed-query';
import type { TextIndex, TextMatches } from '../text-index/text-index';
import { rrfScore } from './rrf-score';
import { pageRecordsSql } from '../sql/page-records';
import { semanticSideSql } from '../sql/semantic-side';
import { toVectorLiteral } from '../embedding/embedding-provider';
import type { VectorIndex } from '../vector-index/vector-index';
import { filteredOffersOf, semanticSideInMemory } from './memory-semantic-side';
import type { ListingResult, ListingRow } from './listing-row';
import type { RankingRequest, RankingTuning } from '../request/listing-request';

/** Runs a statement and returns its rows. */
export type RunSql = (sql: Sql) => Promise<Record<string, unknown>[]>;

/**
 * Ranked listings whose text side is scored in the replica's in-memory text index (apps/search/
 * README.md, "The text index in memory"): the analysed query's terms (analysed against this index:
 * QueryAnalysisService) are scored in memory under the filters for every match, the semantic side
 * is one statement given the text side's best ids (sql/semantic-side.ts), the fusion is computed
 * here (rrfScore), and the page's records are read by id (sql/page-records.ts). Every statement
 * reads the index's generation: when one is not the in-memory index's (a reindex committed, and
 * this replica has not loaded it yet), the listing answers undefined and the caller waits for the
 * new generation and runs it again, so a page never mixes two catalogues.
 */
export class MemoryListing {
  constructor(
    private readonly index: TextIndex,
    private readonly run: RunSql,
    /** The vectors of the index's generation, when the replica holds them: the semantic side in memory. */
    private readonly vectors?: VectorIndex,
  ) {}

  /** The full-text ranking (the hybrid ranker's fallback): the text side alone, best first. */
  async byText(request: RankingRequest, query: AnalysedQuery): Promise<ListingResult | undefined> {
    const matches = this.matches(request, query);
    const { offset, limit } = request.page;
    const floor = request.tuning.tsvectorFloor;
    const page = matches.best(offset + limit, floor).slice(offset);
    const rows = await this.records(
      request,
      page.map((match) => match.ordinal),
    );
    if (!rows) return undefined;
    return {
      total: matches.countAtLeast(floor),
      rows: page.map((match, i) => ({ ...rows[i], tsvector_score: match.score, position: match.rank })),
    };
  }

  /**
   * The hybrid ranking: RRF of the semantic side (`w`) and the text side (`1 − w`), a side of
   * weight 0 empty, ties on id; the total is the size of the union the page is cut from.
   */
  async hybrid(
    request: RankingRequest,
    query: AnalysedQuery,
    embedding: Float32Array,
  ): Promise<ListingResult | undefined> {
    const { rrfVectorWeight: w, k, tsvectorFloor: floor, semanticCandidates } = request.tuning;
    // the vector side needs the list of the offers passing the filters: listed once, for both sides
    const passing = w > 0 && this.vectors ? passingOffersOf(request.filters, this.index.filters) : undefined;
    const filtered = passing && filteredOffersOf(passing);
    const matches = this.matches(
      request,
      query,
      filtered ? filtered.filter : offerFilterOf(request.filters, this.index.filters),
    );
    const { offset, limit } = request.page;
    const wanted = offset + limit;
    const textBest = matches.best(Math.max(wanted, semanticCandidates), floor);
    let semantic: { ordinal: number; rank: number }[] = [];
    const semanticFloor = semanticFloorOf(request, query.terms);
    /** The semantic side's similarities, when answered in memory. */
    const similarities = new Map<number, number>();
    if (w > 0 && this.vectors) {
      const best = textBest.slice(0, semanticCandidates).map((match) => match.ordinal);
      const inMemory = semanticSideInMemory(
        request,
        query,
        semanticFloor,
        this.index,
        this.vectors,
        embedding,
        best,
        filtered,
      );
      for (const match of inMemory) similarities.set(match.ordinal, match.similarity);
      semantic = inMemory;
    } else if (w > 0) {
      const best = textBest.slice(0, semanticCandidates).map((match) => this.index.ids[match.ordinal]);
      const semanticRequest = { ...request, tuning: { ...request.tuning, semanticFloor } };
      const rows = await this.run(semanticSideSql(semanticRequest, query, toVectorLiteral(embedding), best));
      if (rows[0]?.generation !== this.index.generation) return undefined;
      semantic = rows
        .filter((row) => row.id !== null)
        .map((row) => ({ ordinal: this.ordinal(row.id as string), rank: row.rank as number }));
    }
    const textSide = w < 1;
    // The page is among the text side's `wanted` best and the semantic side's records: a record
    // ranked past `wanted` on the text side alone scores less than each of those `wanted`.
    const merged = new Map<number, Fused>();
    const fuse = (ordinal: number) => {
      let fused = merged.get(ordinal);
      if (!fused) merged.set(ordinal, (fused = { ordinal, semanticRank: null, textRank: null }));
      return fused;
    };
    if (textSide) for (const match of textBest.slice(0, wanted)) fuse(match.ordinal).textRank = match.rank;
    // the text ranks of the semantic side's records past the text side's `wanted` best, in one pass
    const textRanks = textSide
      ? matches.ranksOf(
          semantic
            .filter(({ ordinal }) => merged.get(ordinal)?.textRank == null)
            .map(({ ordinal }) => ordinal),
          floor,
        )
      : new Map<number, number>();
    let semanticOnly = 0;
    for (const { ordinal, rank } of semantic) {
      const fused = fuse(ordinal);
      fused.semanticRank = rank;
      fused.textRank ??= textRanks.get(ordinal) ?? null;
      if (fused.textRank === null) semanticOnly++;
    }
    const scored = [...merged.values()].map((fused) => ({
      ...fused,
      score: rrfScore(w, k, fused.semanticRank ?? undefined, fused.textRank ?? undefined),
    }));
    scored.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
    const page = scored.slice(offset, wanted);
    const pageOrdinals = page.map((fused) => fused.ordinal);
    const rows = await this.records(
      request,
      pageOrdinals,
      this.vectors ? undefined : toVectorLiteral(embedding),
    );
    if (!rows) return undefined;
    if (this.vectors) this.semanticScores(rows, pageOrdinals, embedding, similarities);
    return {
      total: (textSide ? matches.countAtLeast(floor) : 0) + semanticOnly,
      rows: page.map((fused, i) => ({
        ...rows[i],
        _relevance_score: fused.score,
        tsvector_score: scoreOrZero(matches.scoreOf(fused.ordinal)),
        ...(request.explain ? { semantic_rank: fused.semanticRank, text_rank: fused.textRank } : {}),
      })),
    };
  }

  /**
   * The page's `semantic_score`s from memory (the full-precision cosines pgvector's
   * `1 − (embedding <=> query)` gives): the semantic side's, else computed for the record.
   */
  private semanticScores(
    rows: ListingRow[],
    ordinals: number[],
    embedding: Float32Array,
    similarities: Map<number, number>,
  ): void {
    const missing = Int32Array.from(ordinals.filter((ordinal) => !similarities.has(ordinal)));
    const cosines = new Float64Array(missing.length);
    this.vectors!.fullPrecision.cosines(embedding, missing, cosines);
    missing.forEach((ordinal, i) => similarities.set(ordinal, cosines[i]));
    rows.forEach((row, i) => (row.semantic_score = similarities.get(ordinals[i])!));
  }

  /** Every match of the query's terms under the request's filters (`filter`), scored in memory. */
  private matches(
    request: RankingRequest,
    query: AnalysedQuery,
    filter = offerFilterOf(request.filters, this.index.filters),
  ): TextMatches {
    return this.index.match(textQueryOf(query.terms, languagePreferenceOf(query, request.tuning)), filter);
  }

  /** The page's records in page order; undefined when the database holds another generation. */
  private async records(
    request: RankingRequest,
    ordinals: number[],
    embedding?: string,
  ): Promise<ListingRow[] | undefined> {
    const ids = ordinals.map((ordinal) => this.index.ids[ordinal]);
    const rows = await this.run(pageRecordsSql(request, ids, embedding));
    if (rows[0]?.generation !== this.index.generation) return undefined;
    const byId = new Map<string, ListingRow>();
    for (const { generation: _generation, ...row } of rows) {
      if (row.id !== null) byId.set(row.id as string, row as unknown as ListingRow);
    }
    const page = ids.map((id) => byId.get(id));
    // a record of the page missing: the catalogue changed under the same generation (cannot happen)
    if (page.some((row) => row === undefined)) return undefined;
    return page as ListingRow[];
  }

  private ordinal(id: string): number {
    const ordinal = this.index.ordinalOf(id);
    if (ordinal === undefined)
      throw new Error(`offer ${id} is not in text index generation ${this.index.generation}`);
    return ordinal;
  }
}

interface Fused {
  ordinal: number;
  semanticRank: number | null;
  textRank: number | null;
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
 * the text side found no word of it in any form (apps/search/README.md, "Searches that match
 * nothing"): a string of random letters then answers nothing, a real word only its close neighbours.
 */
export function semanticFloorOf(request: RankingRequest, terms: readonly QueryTerm[]): number {
  const { semanticFloor, noMatchSemanticFloor } = request.tuning;
  return terms.length === 0 ? Math.max(semanticFloor, noMatchSemanticFloor) : semanticFloor;
}
