import { BuiltinEmbeddingProvider } from '../src/embedding/builtin-embedding.provider';
import { toVectorLiteral } from '../src/embedding/embedding-provider';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import { HALF_PRECISION_COSINE_ERROR } from '../src/indexes/vector-index/half-precision-vectors';
import { loadVectorIndex } from '../src/indexes/vector-index/vector-index.loader';
import { VectorIndexService } from '../src/indexes/vector-index/vector-index.service';
import type { VectorIndexLoad } from '../src/indexes/vector-index/vector-index.loader';
import { createTestApp, TestApp } from './test-app';

/**
 * The vector side in memory (D-75): the vectors a load reads from PostgreSQL, by the text
 * index's ordinals, answer the exact nearest offers that pgvector's exact `ORDER BY embedding <=>
 * query, id` answers (distances within DISTANCE_TOLERANCE; the same ids in the same order but for
 * offers whose pgvector distances are within twice the tolerance of each other, which half
 * precision may order either way), over every offer and under a filter.
 */
const SEARCHES = ['ski', 'beach Naxos', 'Wanderung am See', 'croisiere sur le lac', 'Santorni', 'xyzzyqqq'];
const K = 25;
/** The index re-scores at half precision (HALF_PRECISION_COSINE_ERROR); pgvector sums in 32-bit floats (1e-5). */
const DISTANCE_TOLERANCE = HALF_PRECISION_COSINE_ERROR + 1e-5;

describe('in-memory vector index', () => {
  let t: TestApp;
  /** Laid out for the sparse query scan (the built-in provider's searches take it). */
  let load: VectorIndexLoad;
  /** Without the sparse layout (an `http` provider's): the approximate index and the row scan. */
  let withoutSparse: VectorIndexLoad;
  const builtin = new BuiltinEmbeddingProvider(384);

  beforeAll(async () => {
    t = await createTestApp({ env: { CATALOGUE_SOURCE: 'generated:800' } });
    await t.reindex.idle();
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', total: 800 });
    const options = {
      approximateFromOffers: 0,
      approximate: { scalar: 'f16', connectivity: 16, expansionAdd: 64, expansionSearch: 64 },
      threads: 1,
    } as const;
    load = await loadVectorIndex(t.dataSource, { ...options, sparseLayout: true });
    withoutSparse = await loadVectorIndex(t.dataSource, { ...options, sparseLayout: false });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  /** The query as pgvector reads it: the literal the service sends, parsed back to 32-bit floats. */
  const queryOf = (search: string) => {
    const literal = toVectorLiteral(builtin.embed(search));
    return { literal, vector: Float32Array.from(literal.slice(1, -1).split(','), Number) };
  };

  /** pgvector's exact nearest offers (no index: the distances are materialized first), 2 × K of them. */
  const pgvectorNearest = async (literal: string, destination?: string) =>
    (await t.dataSource.query(
      `WITH distances AS MATERIALIZED (
         SELECT id, embedding <=> $1::vector AS distance FROM travel_offers
         WHERE $2::text IS NULL OR destination_code = $2::text
       )
       SELECT id, distance FROM distances ORDER BY distance, id LIMIT ${2 * K}`,
      [literal, destination ?? null],
    )) as { id: string; distance: number }[];

  /** `found` is pgvector's first K of `nearest` (its 2 × K), but for the order of near ties. */
  const expectSameNearest = (
    found: { ordinals: Int32Array; similarities: Float64Array },
    nearest: { id: string; distance: number }[],
  ) => {
    const ids = [...found.ordinals].map((o) => load.ids[o]);
    const distanceOf = new Map(nearest.map(({ id, distance }) => [id, distance]));
    const expected = nearest.slice(0, K);
    expect(ids).toHaveLength(expected.length);
    // each found offer among pgvector's nearest, its similarity within tolerance of pgvector's
    ids.forEach((id, i) =>
      expect(Math.abs(1 - found.similarities[i] - distanceOf.get(id)!)).toBeLessThanOrEqual(
        DISTANCE_TOLERANCE,
      ),
    );
    // in pgvector's order but for near ties
    for (let i = 1; i < ids.length; i++) {
      expect(distanceOf.get(ids[i - 1])!).toBeLessThanOrEqual(
        distanceOf.get(ids[i])! + 2 * DISTANCE_TOLERANCE,
      );
    }
    // pgvector's first K all found, but for near ties with the K-th
    const last = expected[expected.length - 1]?.distance ?? 0;
    const foundIds = new Set(ids);
    for (const { id, distance } of expected) {
      if (distance < last - 2 * DISTANCE_TOLERANCE) expect(foundIds.has(id)).toBe(true);
    }
  };

  it("holds the database's generation and the text index's ordinals", async () => {
    const [{ generation }] = (await t.dataSource.query(
      'SELECT generation::text AS generation FROM search_stats',
    )) as { generation: string }[];
    expect(load.index.generation).toBe(generation);
    expect(load.index.offers).toBe(800);
    expect(load.index.dimension).toBe(384);
    const text = await t.app.get(TextIndexService).loaded();
    expect(text.generation).toBe(generation);
    expect(load.ids).toEqual(text.ids);
    expect(withoutSparse.ids).toEqual(text.ids);
  });

  it('is laid out for sparse queries only when asked to (the service asks for the built-in provider)', async () => {
    expect(load.index.sparse).toBeDefined();
    expect(withoutSparse.index.sparse).toBeUndefined();
    expect(load.index.bytes - withoutSparse.index.bytes).toBe(load.index.sparse!.byteLength);
    const service = t.app.get(VectorIndexService);
    await service.settled();
    expect(service.forGeneration(load.index.generation)?.sparse).toBeDefined();
  });

  it("answers pgvector's exact nearest offers", async () => {
    for (const search of SEARCHES) {
      const { literal, vector } = queryOf(search);
      const expected = await pgvectorNearest(literal);
      expectSameNearest(load.index.exact(vector, K), expected);
      expectSameNearest(withoutSparse.index.exact(vector, K), expected);
    }
  });

  it("answers pgvector's exact nearest offers under a filter", async () => {
    const [{ destination }] = (await t.dataSource.query(
      `SELECT destination_code AS destination FROM travel_offers WHERE destination_code IS NOT NULL
       GROUP BY destination_code ORDER BY count(*) DESC, destination_code LIMIT 1`,
    )) as { destination: string }[];
    const rows = (await t.dataSource.query('SELECT id FROM travel_offers WHERE destination_code = $1', [
      destination,
    ])) as { id: string }[];
    const ordinalOf = new Map(load.ids.map((id, ordinal) => [id, ordinal]));
    const filtered = Int32Array.from(rows, ({ id }) => ordinalOf.get(id)!).sort();
    for (const search of SEARCHES) {
      const { literal, vector } = queryOf(search);
      const expected = await pgvectorNearest(literal, destination);
      expectSameNearest(load.index.nearest(vector, K, filtered), expected);
      expectSameNearest(withoutSparse.index.exact(vector, K, filtered), expected);
    }
  });

  it('finds most of them with its approximate index', async () => {
    let found = 0;
    for (const search of SEARCHES) {
      const { literal, vector } = queryOf(search);
      const exact = new Set((await pgvectorNearest(literal)).slice(0, K).map(({ id }) => id));
      for (const o of withoutSparse.index.nearest(vector, K).ordinals) if (exact.has(load.ids[o])) found++;
    }
    expect(withoutSparse.index.approximate).toBeDefined();
    expect(found / (K * SEARCHES.length)).toBeGreaterThanOrEqual(0.9);
  });
});
