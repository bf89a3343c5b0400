import type { Sql } from '@rt/database';
import type { StemsOf } from '../query/analysis/stems';
import { NO_EXPANSION } from '../query/glossary/query-expander';
import { filterColumnsOf } from '../indexes/text-index/offer-filters.spec-helper';
import { queryTermsOf } from '../indexes/text-index/query-terms';
import { readQueryText } from '../query/analysis/analysed-query';
import type { AnalysedQuery } from '../query/analysis/analysed-query';
import { TextIndex } from '../indexes/text-index/text-index';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged, ListingResult } from './listing-row';
import { MemoryListing, semanticFloorOf } from './memory-listing';
import { rrfScore } from './rrf-score';
import { StatementSemanticSide } from './statement-semantic-side';
import type { ExpansionWeights } from '../query/analysis/text-search';
import type { RankingRequest, RankingTuning } from '../request/listing-request';

const GENERATION = '7';
const ids = ['OFFER-0', 'OFFER-1', 'OFFER-2', 'OFFER-3', 'OFFER-4', 'OFFER-5'];
/**
 * "ski" ranks the text side OFFER-1, OFFER-2, OFFER-3 (the same impact as OFFER-2: ties by id),
 * OFFER-0, OFFER-4; OFFER-5 does not hold it.
 */
const IMPACTS: Record<string, [number, number][]> = {
  ski: [
    [0, 1],
    [1, 3],
    [2, 2],
    [3, 2],
    [4, 0.5],
  ],
  lac: [[5, 1]],
};
const TEXT_ORDER = ['OFFER-1', 'OFFER-2', 'OFFER-3', 'OFFER-0', 'OFFER-4'];

function textIndex(): TextIndex {
  const postings = new Map(
    Object.entries(IMPACTS).map(([term, entries]) => [
      term,
      {
        ordinals: Int32Array.from(entries, ([ordinal]) => ordinal),
        impacts: Float32Array.from(entries, ([, impact]) => impact),
      },
    ]),
  );
  return new TextIndex(GENERATION, ids, postings, filterColumnsOf(ids.map(() => 'CH')), 100);
}

const WEIGHTS: ExpansionWeights = {
  glossary: 0.3,
  synonym: 0.5,
  compound: 0.8,
  place: 0.9,
  within: 0.6,
  narrower: 0.5,
  related: 0.5,
};
const noStems: StemsOf = () => ({ fr: null, de: null, en: null, stop: false });

/** The search analysed against `index` without expansion nor stems. */
function queryOf(index: TextIndex, search: string): AnalysedQuery {
  const text = readQueryText(search);
  const analysed = index.analyser.analyse(text.words, NO_EXPANSION, WEIGHTS, noStems);
  const terms = queryTermsOf(analysed, index.indexedOffers);
  return { ...text, expansion: NO_EXPANSION, language: null, stems: noStems, shortSearch: true, terms };
}

function requestOf(
  search: string,
  page: { offset: number; limit: number },
  tuning: Partial<RankingTuning> = {},
): RankingRequest {
  return {
    branch: 'search',
    search,
    filters: {},
    page: { number: Math.floor(page.offset / page.limit) + 1, ...page },
    density: 'full',
    explain: true,
    tuning: {
      rrfVectorWeight: 0.5,
      semanticFloor: 0.3,
      noMatchSemanticFloor: 0.6,
      tsvectorFloor: 0,
      k: 60,
      semanticCandidates: 10,
      spellingNeighbourMaxDocuments: 0,
      hnsw: { efSearch: 40, iterativeScan: 'relaxed_order', maxScanTuples: 20_000 },
      fullTextFallback: true,
      languagePreference: 0,
      expansionWeights: WEIGHTS,
      ...tuning,
    },
  };
}

/**
 * The database's side of a listing: the semantic side answers `semantic` (ids, best first), the
 * page's records come back in reverse order (the listing puts them in page order); `generation`
 * is the one every statement reads.
 */
class FakeDatabase {
  readonly semanticStatements: Sql[] = [];
  readonly pageStatements: Sql[] = [];
  generation = GENERATION;

  constructor(private readonly semantic: string[] = []) {}

  readonly run = (sql: Sql): Promise<Record<string, unknown>[]> => {
    const { generation } = this;
    if (sql.text.includes('semantic_ranks')) {
      this.semanticStatements.push(sql);
      if (this.semantic.length === 0) return Promise.resolve([{ generation, id: null, rank: null }]);
      return Promise.resolve(this.semantic.map((id, i) => ({ generation, id, rank: i + 1 })));
    }
    this.pageStatements.push(sql);
    const pageIds = sql.values[0] as string[];
    if (pageIds.length === 0) return Promise.resolve([{ generation, id: null }]);
    return Promise.resolve(pageIds.map((id) => ({ generation, id, name: `name of ${id}` })).reverse());
  };
}

/** A listing's answer, which must not be GENERATION_CHANGED. */
function answered(result: ListingResult | GenerationChanged): ListingResult {
  if (result === GENERATION_CHANGED) throw new Error('the listing read another generation');
  return result;
}
const idsOf = (result: ListingResult | GenerationChanged) => answered(result).rows.map((row) => row.id);

/** The text side alone answering "ski" (`query`) over `index`, the records read from a FakeDatabase. */
async function skiTextSide(
  index: TextIndex,
  query: AnalysedQuery,
  page: { offset: number; limit: number },
  tuning: Partial<RankingTuning> = {},
): Promise<ListingResult> {
  return answered(
    await new MemoryListing(index, new FakeDatabase().run).byText(requestOf('ski', page, tuning), query),
  );
}

describe('MemoryListing.byText (the text side alone)', () => {
  const index = textIndex();
  const query = queryOf(index, 'ski');

  it('ranks by text score, ties by id, each row with its score, rank and record', async () => {
    const database = new FakeDatabase();
    const result = answered(
      await new MemoryListing(index, database.run).byText(requestOf('ski', { offset: 0, limit: 10 }), query),
    );
    expect(idsOf(result)).toEqual(TEXT_ORDER);
    expect(result.total).toBe(5);
    expect(result.rows.map((row) => row.position)).toEqual([1, 2, 3, 4, 5]);
    expect(result.rows[0]).toMatchObject({ id: 'OFFER-1', name: 'name of OFFER-1' });
    const scores = result.rows.map((row) => row.tsvector_score!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[1]).toBe(scores[2]);
  });

  it('cuts the page out of the ranking, and counts every match', async () => {
    const database = new FakeDatabase();
    const result = answered(
      await new MemoryListing(index, database.run).byText(requestOf('ski', { offset: 2, limit: 2 }), query),
    );
    expect(idsOf(result)).toEqual(['OFFER-3', 'OFFER-0']);
    expect(result.rows.map((row) => row.position)).toEqual([3, 4]);
    expect(result.total).toBe(5);
  });

  it('keeps the matches scoring at least the floor, in the page and the total', async () => {
    const floor = (await skiTextSide(index, query, { offset: 0, limit: 10 })).rows[3].tsvector_score!;
    const result = await skiTextSide(index, query, { offset: 0, limit: 10 }, { tsvectorFloor: floor });
    expect(idsOf(result)).toEqual(TEXT_ORDER.slice(0, 4));
    expect(result.total).toBe(4);
  });

  it('answers GENERATION_CHANGED when the database holds another generation', async () => {
    const database = new FakeDatabase();
    database.generation = '8';
    await expect(
      new MemoryListing(index, database.run).byText(requestOf('ski', { offset: 0, limit: 10 }), query),
    ).resolves.toBe(GENERATION_CHANGED);
  });
});

describe('MemoryListing.hybrid (reciprocal rank fusion, docs/decisions.md D-51)', () => {
  const index = textIndex();
  const query = queryOf(index, 'ski');
  /**
   * OFFER-3 is 1st there and 3rd on the text side, OFFER-1 the reverse (the same score: ties by
   * id); OFFER-5 is on the semantic side alone; OFFER-4, 5th on the text side, is 4th there.
   */
  const SEMANTIC_ORDER = ['OFFER-3', 'OFFER-5', 'OFFER-1', 'OFFER-4'];
  const FUSED_ORDER = ['OFFER-1', 'OFFER-3', 'OFFER-4', 'OFFER-2', 'OFFER-5', 'OFFER-0'];

  const hybridOf = (
    page: { offset: number; limit: number },
    tuning: Partial<RankingTuning> = {},
    database = new FakeDatabase(SEMANTIC_ORDER),
  ) => {
    const request = requestOf('ski', page, tuning);
    const semantic = new StatementSemanticSide(request, query, index, database.run, Float32Array.of(1, 0));
    return new MemoryListing(index, database.run).hybrid(request, query, semantic);
  };
  const hybrid = async (...args: Parameters<typeof hybridOf>) => answered(await hybridOf(...args));

  it('sums w/(k + semantic rank) and (1 − w)/(k + text rank), ties by id', async () => {
    const result = await hybrid({ offset: 0, limit: 10 });
    expect(idsOf(result)).toEqual(FUSED_ORDER);
    expect(result.rows.map((row) => [row.semantic_rank, row.text_rank])).toEqual([
      [3, 1],
      [1, 3],
      [4, 5],
      [null, 2],
      [2, null],
      [null, 4],
    ]);
    expect(result.rows.map((row) => row._relevance_score)).toEqual(
      result.rows.map((row) => rrfScore(0.5, 60, row.semantic_rank ?? undefined, row.text_rank ?? undefined)),
    );
    expect(result.rows[0]._relevance_score).toBe(result.rows[1]._relevance_score);
  });

  it('counts the text side and the records found on the semantic side alone', async () => {
    const result = await hybrid({ offset: 0, limit: 10 });
    expect(result.total).toBe(6);
    // a record the text side does not select has a text score of 0
    expect(result.rows.find((row) => row.id === 'OFFER-5')!.tsvector_score).toBe(0);
  });

  it('cuts each page out of the one fused ranking, whatever the window', async () => {
    const pages = [];
    for (let offset = 0; offset < 6; offset += 2) pages.push(...idsOf(await hybrid({ offset, limit: 2 })));
    expect(pages).toEqual(FUSED_ORDER);
    // OFFER-4, past the text side's 1 best, keeps its text rank of 5
    const first = await hybrid({ offset: 0, limit: 1 }, {}, new FakeDatabase(['OFFER-4']));
    expect(first!.rows.map((row) => [row.id, row.semantic_rank, row.text_rank])).toEqual([['OFFER-4', 1, 5]]);
  });

  it('gives the semantic statement the text side’s best `semanticCandidates` ids', async () => {
    const database = new FakeDatabase(SEMANTIC_ORDER);
    await hybrid({ offset: 0, limit: 1 }, { semanticCandidates: 2 }, database);
    expect(database.semanticStatements).toHaveLength(1);
    expect(database.semanticStatements[0].values).toContainEqual(['OFFER-1', 'OFFER-2']);
  });

  it('leaves a record under the text floor to its semantic rank', async () => {
    const floor = (await skiTextSide(index, query, { offset: 0, limit: 10 })).rows[3].tsvector_score!;
    const result = await hybrid({ offset: 0, limit: 10 }, { tsvectorFloor: floor });
    const offer4 = result.rows.find((row) => row.id === 'OFFER-4')!;
    expect([offer4.semantic_rank, offer4.text_rank]).toEqual([4, null]);
    // 4 text matches at least the floor, and OFFER-5 and OFFER-4 on the semantic side alone
    expect(result.total).toBe(6);
  });

  it('ranks by the text side alone when the semantic side weighs 0, without its statement', async () => {
    const database = new FakeDatabase(SEMANTIC_ORDER);
    const result = await hybrid({ offset: 0, limit: 10 }, { rrfVectorWeight: 0 }, database);
    expect(database.semanticStatements).toHaveLength(0);
    expect(idsOf(result)).toEqual(TEXT_ORDER);
    expect(result.total).toBe(5);
  });

  it('ranks by the semantic side alone when it weighs 1', async () => {
    const result = await hybrid({ offset: 0, limit: 10 }, { rrfVectorWeight: 1 });
    expect(idsOf(result)).toEqual(SEMANTIC_ORDER);
    expect(result.rows.every((row) => row.text_rank === null)).toBe(true);
    expect(result.total).toBe(4);
  });

  it('ranks by the text side when the semantic side finds nothing', async () => {
    const result = await hybrid({ offset: 0, limit: 10 }, {}, new FakeDatabase([]));
    expect(idsOf(result)).toEqual(TEXT_ORDER);
    expect(result.total).toBe(5);
  });

  it('answers GENERATION_CHANGED when a statement reads another generation', async () => {
    const database = new FakeDatabase(SEMANTIC_ORDER);
    database.generation = '8';
    await expect(hybridOf({ offset: 0, limit: 10 }, {}, database)).resolves.toBe(GENERATION_CHANGED);
    expect(database.pageStatements).toHaveLength(0);
  });
});

describe('semanticFloorOf', () => {
  const index = textIndex();

  it('raises the semantic floor to noMatchSemanticFloor when no word of the search is found', () => {
    const request = requestOf('zzyzx', { offset: 0, limit: 10 });
    expect(queryOf(index, 'zzyzx').terms).toEqual([]);
    expect(semanticFloorOf(request, [])).toBe(0.6);
    expect(semanticFloorOf(request, queryOf(index, 'ski').terms)).toBe(0.3);
  });

  it('gives the semantic statement the raised floor', async () => {
    const database = new FakeDatabase(['OFFER-5']);
    const request = requestOf('zzyzx', { offset: 0, limit: 10 });
    const query = queryOf(index, 'zzyzx');
    const semantic = new StatementSemanticSide(request, query, index, database.run, Float32Array.of(1, 0));
    await new MemoryListing(index, database.run).hybrid(request, query, semantic);
    expect(database.semanticStatements[0].values).toContain(0.6);
  });
});
