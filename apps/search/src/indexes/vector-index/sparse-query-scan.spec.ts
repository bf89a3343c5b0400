import { readFileSync } from 'node:fs';
import { QuantizedVectors, quantizedQuery } from './quantized-vectors';
import { SparseQueryScan } from './sparse-query-scan';
import { SPARSE_SCAN_WASM_PATH, sparseScanModuleSource } from './sparse-scan-source';
import { DIMENSION, QUERIES, offerVectors } from './vector-fixtures.spec-helper';

/** Each offer's int8 dot product with `query` over its int8 norm, in plain arithmetic. */
function reference(vectors: QuantizedVectors, query: Int8Array): number[] {
  return Array.from({ length: vectors.count }, (_, o) => {
    const vector = vectors.vector(o);
    let dot = 0;
    let squared = 0;
    for (let d = 0; d < vectors.dimension; d++) {
      dot += vector[d] * query[d];
      squared += vector[d] * vector[d];
    }
    return squared === 0 ? 0 : dot / Math.sqrt(squared);
  });
}

describe('SparseQueryScan', () => {
  it('runs the kernel compiled from the committed source (run `pnpm --filter search wasm:build` when this fails)', async () => {
    expect(readFileSync(SPARSE_SCAN_WASM_PATH, 'utf8')).toBe(await sparseScanModuleSource());
  });

  // 130 offers: two whole blocks and two offers of a third; offer 7 is all zeros
  const vectors = offerVectors(130);
  const count = vectors.length / DIMENSION;
  const quantized = new QuantizedVectors(DIMENSION, count);
  for (let o = 0; o < count; o++)
    quantized.set(o, o === 7 ? new Float32Array(DIMENSION) : vectors, o * (o === 7 ? 0 : DIMENSION));

  it('answers every offer its int8 cosine with a sparse query, up to the query norm', async () => {
    expect(count % 64).toBeGreaterThan(0);
    const scan = (await SparseQueryScan.build(quantized))!;
    let sparse = 0;
    for (const query of QUERIES) {
      const quantizedOne = quantizedQuery(query);
      const scores = scan.scores(quantizedOne);
      if (scores === undefined) continue;
      sparse++;
      expect(scores).toHaveLength(count);
      const expected = reference(quantized, quantizedOne);
      scores.forEach((score, o) => expect(score).toBeCloseTo(expected[o], 3));
      expect(scores[7]).toBe(0);
    }
    expect(sparse).toBeGreaterThan(QUERIES.length / 2);
  });

  it('declines a query with more than maxNonZero non-zero dimensions, and takes one with exactly that many', async () => {
    const scan = (await SparseQueryScan.build(quantized))!;
    const query = new Int8Array(DIMENSION);
    for (let d = 0; d < scan.maxNonZero; d++) query[(d * 5) % DIMENSION] = d % 2 === 0 ? 127 : -90;
    const scores = scan.scores(query)!;
    expect(scores[0]).toBeCloseTo(reference(quantized, query)[0], 3);
    query[DIMENSION - 1] = 1;
    expect(scan.scores(query)).toBeUndefined();
    // the next sparse query is answered whole again (no weights left from the declined one)
    const again = quantizedQuery(QUERIES[0]);
    expect(scan.scores(again)![3]).toBeCloseTo(reference(quantized, again)[3], 3);
  });

  it('keeps the offers of the highest scores, ties by ordinal, whether or not blocks are skipped by their largest score', async () => {
    // 2,000 offers: 8 blocks, the last one partly empty
    const many = offerVectors(2_000);
    const offers = many.length / DIMENSION;
    const manyQuantized = new QuantizedVectors(DIMENSION, offers);
    for (let o = 0; o < offers; o++) manyQuantized.set(o, many, o * DIMENSION);
    const scan = (await SparseQueryScan.build(manyQuantized))!;
    const everyThird = Int32Array.from({ length: Math.ceil(offers / 3) }, (_, i) => 3 * i);
    // a search's opposite: the offers holding its words score below zero, the rest about zero
    const opposite = quantizedQuery(QUERIES[0]).map((value) => -value);
    let compared = 0;
    for (const query of [...QUERIES.map(quantizedQuery), opposite]) {
      const scores = scan.scores(query);
      if (scores === undefined) continue;
      const byScore = (among: number[]) =>
        among
          .map((o) => ({ o, score: scores[o] }))
          .sort((a, b) => b.score - a.score || a.o - b.o)
          .map(({ o }) => o);
      const all = byScore(Array.from({ length: offers }, (_, o) => o));
      const thirds = byScore([...everyThird]);
      // 5 of 8 blocks' largest scores bound the rest; 40 candidates: every block is read
      for (const wanted of [1, 5, 40]) {
        expect([...scan.nearest(query, wanted)!]).toEqual(all.slice(0, wanted));
        expect([...scan.nearest(query, wanted, everyThird)!]).toEqual(thirds.slice(0, wanted));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(3 * (QUERIES.length / 2 + 1));
  });

  it('is not made for no offers', async () => {
    expect(await SparseQueryScan.build(new QuantizedVectors(DIMENSION, 0))).toBeUndefined();
  });
});
