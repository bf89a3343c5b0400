import { InMemoryFullPrecisionVectors, cosineAt } from './full-precision-vectors';
import { ApproximateIndex } from './native-search';
import { QuantizedVectors, quantizedQuery } from './quantized-vectors';
import { SparseQueryScan } from './sparse-query-scan';
import { COPIED_BELOW_SHARE, EXACT_BELOW_SHARE, RESCORED_PER_NEIGHBOUR, VectorIndex } from './vector-index';
import type { ApproximateNeighbours } from './vector-index';
import { DIMENSION, QUERIES, bruteForce, offerVectors } from './vector-fixtures.spec-helper';

const K = 20;

describe('VectorIndex', () => {
  const vectors = offerVectors(2_000);
  const offers = vectors.length / DIMENSION;
  const quantized = new QuantizedVectors(DIMENSION, offers);
  for (let o = 0; o < offers; o++) quantized.set(o, vectors, o * DIMENSION);
  const rescoring = new InMemoryFullPrecisionVectors(DIMENSION, vectors);
  const exactOnly = new VectorIndex('1', quantized, rescoring);
  /** One offer in 17: a selective filter (below COPIED_BELOW_SHARE). */
  const few = Int32Array.from({ length: Math.ceil(offers / 17) }, (_, i) => 17 * i);
  /** One offer in 3 (below EXACT_BELOW_SHARE). */
  const some = Int32Array.from({ length: Math.ceil(offers / 3) }, (_, i) => 3 * i);
  /** Three offers in 4: a filter leaving many. */
  const many = Int32Array.from({ length: offers }, (_, o) => o).filter((o) => o % 4 !== 0);

  let withSparseScan: VectorIndex;
  beforeAll(async () => {
    const sparse = await SparseQueryScan.build(quantized);
    withSparseScan = new VectorIndex('1', quantized, rescoring, undefined, sparse);
  });

  it('scores the sparse queries by the sparse scan and the dense ones by the row scan', () => {
    const sparseQueries = QUERIES.filter((query) => withSparseScan.sparse!.scores(quantizedQuery(query)));
    expect(sparseQueries.length).toBeGreaterThan(QUERIES.length / 2);
    expect(sparseQueries.length).toBeLessThan(QUERIES.length);
  });

  describe.each([
    ['the row scan alone', () => exactOnly],
    ['the sparse scan', () => withSparseScan],
  ])('by %s', (_, index) => {
    it('finds the exact k nearest with their full-precision similarities, as brute force does', () => {
      for (const query of QUERIES) {
        const { ordinals, similarities } = index().nearest(query, K);
        expect([...ordinals]).toEqual(bruteForce(vectors, query, K));
        ordinals.forEach((o, i) =>
          expect(similarities[i]).toBe(cosineAt(query, vectors, o * DIMENSION, DIMENSION)),
        );
      }
    });

    it('finds the exact k nearest among the offers passing the filters, however many pass', () => {
      expect(few.length).toBeLessThan(COPIED_BELOW_SHARE * offers);
      expect(some.length).toBeGreaterThan(COPIED_BELOW_SHARE * offers);
      for (const query of QUERIES) {
        for (const filtered of [few, some, many, new Int32Array([5, 3]), new Int32Array(0)]) {
          expect([...index().nearest(query, K, filtered).ordinals]).toEqual(
            bruteForce(vectors, query, K, filtered),
          );
        }
      }
    });
  });

  it('answers at most as many offers as it holds', () => {
    const two = new QuantizedVectors(DIMENSION, 2);
    two.set(0, vectors, 0);
    two.set(1, vectors, DIMENSION);
    const index = new VectorIndex(
      '1',
      two,
      new InMemoryFullPrecisionVectors(DIMENSION, vectors.slice(0, 2 * DIMENSION)),
    );
    expect(index.nearest(QUERIES[0], K).ordinals).toHaveLength(2);
    const empty = new VectorIndex(
      '1',
      new QuantizedVectors(DIMENSION, 0),
      new InMemoryFullPrecisionVectors(DIMENSION, new Float32Array(0)),
    );
    expect(empty.nearest(QUERIES[0], K).ordinals).toHaveLength(0);
  });

  describe('with an approximate index', () => {
    it('asks it when the filters leave many offers, for enough that about k pass, and re-scores them', () => {
      const asked: number[] = [];
      const approximate: ApproximateNeighbours = {
        search: (query, k) => {
          asked.push(k);
          return Int32Array.from(bruteForce(vectors, query, k));
        },
      };
      const index = new VectorIndex('1', quantized, rescoring, approximate);
      expect([...index.nearest(QUERIES[2], K).ordinals]).toEqual(bruteForce(vectors, QUERIES[2], K));
      expect([...index.nearest(QUERIES[2], K, many).ordinals]).toEqual(
        bruteForce(vectors, QUERIES[2], K, many),
      );
      expect(asked).toEqual([
        RESCORED_PER_NEIGHBOUR * K,
        Math.ceil((RESCORED_PER_NEIGHBOUR * K * offers) / many.length),
      ]);
    });

    it('scores the filtered offers exactly below EXACT_BELOW_SHARE, or when too few it answers pass', () => {
      const asked: number[] = [];
      // an index that finds only offers failing the filters (one in four: those `many` leaves out)
      const approximate: ApproximateNeighbours = {
        search: (_query, k) => {
          asked.push(k);
          return Int32Array.from({ length: Math.min(k, offers / 4) }, (_, i) => 4 * i);
        },
      };
      const index = new VectorIndex('1', quantized, rescoring, approximate);
      expect(some.length).toBeLessThan(EXACT_BELOW_SHARE * offers);
      expect(many.length).toBeGreaterThanOrEqual(EXACT_BELOW_SHARE * offers);
      for (const filtered of [few, some]) {
        const found = index.nearest(QUERIES[1], K, filtered);
        expect([...found.ordinals]).toEqual(bruteForce(vectors, QUERIES[1], K, filtered));
      }
      expect(asked).toEqual([]);
      const found = index.nearest(QUERIES[1], K, many);
      expect([...found.ordinals]).toEqual(bruteForce(vectors, QUERIES[1], K, many));
      // asked for more until it answered fewer than asked, then the exact search
      expect(asked.length).toBeGreaterThan(1);
    });

    it('is not asked for a sparse query when the sparse scan is there (exact, and faster)', async () => {
      const asked: number[] = [];
      const approximate: ApproximateNeighbours = {
        search: (query, k) => {
          asked.push(k);
          return Int32Array.from(bruteForce(vectors, query, k));
        },
      };
      const index = new VectorIndex(
        '1',
        quantized,
        rescoring,
        approximate,
        await SparseQueryScan.build(quantized),
      );
      const sparse = QUERIES.find((query) => index.sparse!.scores(quantizedQuery(query)))!;
      const dense = QUERIES.find((query) => !index.sparse!.scores(quantizedQuery(query)))!;
      expect([...index.nearest(sparse, K).ordinals]).toEqual(bruteForce(vectors, sparse, K));
      expect(asked).toEqual([]);
      expect([...index.nearest(dense, K).ordinals]).toEqual(bruteForce(vectors, dense, K));
      expect(asked).toEqual([RESCORED_PER_NEIGHBOUR * K]);
    });

    it('finds most of the exact neighbours with usearch (recall@20 floor)', async () => {
      const approximate = await ApproximateIndex.build(
        quantized,
        { scalar: 'f16', connectivity: 16, expansionAdd: 128, expansionSearch: 128 },
        1,
      );
      expect(approximate.size).toBe(offers);
      const index = new VectorIndex('1', quantized, rescoring, approximate);
      let found = 0;
      for (const query of QUERIES) {
        const exact = new Set(bruteForce(vectors, query, K));
        for (const o of index.nearest(query, K).ordinals) if (exact.has(o)) found++;
      }
      expect(found / (K * QUERIES.length)).toBeGreaterThanOrEqual(0.9);
    });
  });
});
