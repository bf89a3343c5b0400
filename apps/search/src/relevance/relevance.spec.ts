import { evaluate, gateFailures, JudgedQuery, ndcgAt, recallAt, reciprocalRank } from './relevance';

describe('relevance measures', () => {
  const relevant = { a: 2, b: 1, c: 1 };

  it('nDCG@8: 1 for the ideal order, less for a worse one, 0 without relevant offers', () => {
    expect(ndcgAt(['a', 'b', 'c'], relevant)).toBeCloseTo(1, 12);
    const swapped = ndcgAt(['b', 'a', 'c'], relevant);
    const ideal = 3 + 1 / Math.log2(3) + 1 / Math.log2(4);
    expect(swapped).toBeCloseTo((1 + 3 / Math.log2(3) + 1 / Math.log2(4)) / ideal, 12);
    expect(ndcgAt(['x', 'y'], relevant)).toBe(0);
    expect(ndcgAt(['a'], {})).toBe(0);
    // only the first 8 count
    expect(ndcgAt(['1', '2', '3', '4', '5', '6', '7', '8', 'a'], relevant)).toBe(0);
  });

  it('recall@8 over min(8, relevant), so 1 is reachable with many relevant offers', () => {
    expect(recallAt(['a', 'x', 'c'], relevant)).toBeCloseTo(2 / 3, 12);
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`r${i}`, 1]));
    expect(recallAt(Object.keys(many).slice(0, 8), many)).toBe(1);
    expect(recallAt(['r0', 'x'], many)).toBe(1 / 8);
  });

  it('MRR: 1 / position of the first relevant offer', () => {
    expect(reciprocalRank(['x', 'y', 'b'], relevant)).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(['x'], relevant)).toBe(0);
  });

  it('averages per type and ranking; the gate names what hybrid loses', async () => {
    const queries: JudgedQuery[] = [
      { type: 'typo', query: 'q1', relevant: { a: 2 } },
      { type: 'typo', query: 'q2', relevant: { b: 2 } },
    ];
    const report = await evaluate(queries, async (query, ranking) =>
      ranking === 'text'
        ? query === 'q1'
          ? ['a']
          : ['b']
        : ranking === 'vector'
          ? ['x', 'a', 'b']
          : ranking === 'hybrid'
            ? ['x', 'b', 'a']
            : [],
    );
    expect(report.text.typo).toEqual({ ndcg: 1, recall: 1, mrr: 1, zero: 0, queries: 2 });
    expect(report.reference.typo?.zero).toBe(1);
    expect(report.hybrid.typo?.mrr).toBeCloseTo((1 / 3 + 1 / 2) / 2, 12);
    expect(gateFailures(report)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^typo: hybrid ndcg .* < text 1\.000$/)]),
    );
  });

  it('gates hybrid against the reference, overall with a margin, and the zero-result rates', async () => {
    const queries: JudgedQuery[] = [
      { type: 'long', query: 'q1', relevant: { a: 2 } },
      { type: 'long', query: 'q2', relevant: { b: 2 } },
    ];
    const report = await evaluate(queries, async (query, ranking) =>
      ranking === 'reference'
        ? query === 'q1'
          ? ['a']
          : ['b']
        : ranking === 'hybrid'
          ? ['x', 'a', 'b']
          : [],
    );
    const failures = gateFailures(report);
    expect(failures).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^long: hybrid ndcg .* < reference 1\.000$/),
        expect.stringMatching(/^overall: hybrid ndcg .* < reference 1\.000 \+ 0\.05$/),
        'long: text answers nothing to 100% of the queries (> 10%)',
      ]),
    );
    expect(failures.some((failure) => failure.startsWith('long: hybrid answers nothing'))).toBe(false);
  });
});
