import type { AnalysedQuery } from '../query/analysis/analysed-query';
import type { RankingRequest, RankingTuning } from '../request/listing-request';
import { filterColumnsOf } from '../indexes/text-index/offer-filters.spec-helper';
import { TextIndex } from '../indexes/text-index/text-index';
import type { VectorIndex } from '../indexes/vector-index/vector-index';
import type { VectorIndexService } from '../indexes/vector-index/vector-index.service';
import { HybridListing } from './hybrid-listing';
import type { RunSql } from './listing-page';
import { MemoryListing } from './memory-listing';
import { MemorySemanticSide } from './memory-semantic-side';
import type { PgvectorSessions } from './pgvector-sessions';
import type { SemanticSide } from './semantic-side';
import { StatementSemanticSide } from './statement-semantic-side';
import type { TravelsRepository } from './travels.repository';

const ids = ['OFFER-0', 'OFFER-1'];
const indexOf = (generation: string) =>
  new TextIndex(generation, ids, new Map(), filterColumnsOf(ids.map(() => 'CH')), 2);

/** What the sides' constructors read of the analysed query: nothing of its terms. */
const QUERY = {
  text: 'ski',
  words: ['ski'],
  allWords: ['ski'],
  expansion: { knownWords: [], terms: [] },
  terms: [],
} as unknown as AnalysedQuery;

function requestOf(tuning: Partial<RankingTuning> = {}): RankingRequest {
  return {
    branch: 'search',
    search: 'ski',
    filters: {},
    page: { number: 1, offset: 0, limit: 8 },
    density: 'min',
    explain: false,
    // what the choice and the sides' constructors read
    tuning: { rrfVectorWeight: 0.5, semanticCandidates: 10, ...tuning } as RankingTuning,
  };
}

/**
 * HybridListing with the vectors of generation '7' held, a pool (`rowsOf`) and a session runner
 * that records its uses; MemoryListing.hybrid records the semantic side it is given.
 */
function setUp() {
  const vectors = {} as VectorIndex;
  const vectorIndex = {
    forGeneration: (generation: string) => (generation === '7' ? vectors : undefined),
  } as VectorIndexService;
  const rowsOf: RunSql = () => Promise.resolve([]);
  const sessionTunings: RankingTuning[] = [];
  const sessions = {
    run: (tuning: RankingTuning, work: (query: () => Promise<unknown>) => Promise<unknown>) => {
      sessionTunings.push(tuning);
      return work(() => Promise.resolve([]));
    },
  } as unknown as PgvectorSessions;
  const sides: SemanticSide[] = [];
  jest.spyOn(MemoryListing.prototype, 'hybrid').mockImplementation((_request, _query, semantic) => {
    sides.push(semantic);
    return Promise.resolve({ total: 0, rows: [] });
  });
  const runs: RunSql[] = [];
  const counted = (run: RunSql) => (runs.push(run), run);
  const listing = new HybridListing(vectorIndex, { rowsOf } as TravelsRepository, sessions);
  const list = (request: RankingRequest, generation: string) =>
    listing.listAgainst(request, indexOf(generation), QUERY, Float32Array.of(1, 0), counted);
  return { list, rowsOf, sessionTunings, sides, runs };
}

describe('HybridListing (the semantic side chosen per search, D-75)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers the semantic side from memory when the replica holds the vectors of the index’s generation, on the pool', async () => {
    const { list, rowsOf, sessionTunings, sides, runs } = setUp();
    await list(requestOf(), '7');
    expect(sides).toHaveLength(1);
    expect(sides[0]).toBeInstanceOf(MemorySemanticSide);
    expect(runs).toEqual([rowsOf]);
    expect(sessionTunings).toHaveLength(0);
  });

  it('runs the statement, on a session carrying the pgvector settings, when it holds another generation’s or none', async () => {
    const { list, rowsOf, sessionTunings, sides, runs } = setUp();
    const request = requestOf();
    await list(request, '8');
    expect(sides[0]).toBeInstanceOf(StatementSemanticSide);
    expect(sessionTunings).toEqual([request.tuning]);
    expect(runs).toHaveLength(1);
    expect(runs[0]).not.toBe(rowsOf);
  });

  it('takes any connection of the pool for a statement side that weighs nothing', async () => {
    const { list, rowsOf, sessionTunings, sides, runs } = setUp();
    await list(requestOf({ rrfVectorWeight: 0 }), '8');
    expect(sides[0]).toBeInstanceOf(StatementSemanticSide);
    expect(runs).toEqual([rowsOf]);
    expect(sessionTunings).toHaveLength(0);
  });
});
