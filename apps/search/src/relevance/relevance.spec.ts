import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Answer,
  evaluate,
  formatReport,
  gateFailures,
  JudgedQuery,
  ndcgAt,
  noAnswerFigures,
  readJudgedSet,
  recallAt,
  reciprocalRank,
} from './relevance';

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

describe('query types without relevant offers (issue 37: nonsense)', () => {
  const queries: JudgedQuery[] = [
    { type: 'typo', query: 'q1', relevant: { a: 2 } },
    { type: 'nonsense', query: 'xyzzyqqq', relevant: {} },
    { type: 'nonsense', query: 'qwrtzpl', relevant: {} },
  ];
  const answers: Record<string, Answer> = {
    q1: { ranked: ['a'], total: 5 },
    xyzzyqqq: { ranked: ['x', 'y'], total: 34 },
    qwrtzpl: { ranked: [], total: 0 },
  };

  it('counts the records they answer and the share answering none, apart from nDCG and overall', async () => {
    const report = await evaluate(
      queries,
      async (query, ranking) => (ranking === 'text' ? answers[query] : answers[query].ranked),
      ['text', 'hybrid'],
    );
    expect(report.text.nonsense).toBeUndefined();
    expect(report.noAnswer?.text.nonsense).toEqual({ zero: 0.5, records: 17, maxRecords: 34, queries: 2 });
    // a ranking answering the page alone: the page's length counts as its total
    expect(report.noAnswer?.hybrid.nonsense).toEqual({ zero: 0.5, records: 1, maxRecords: 2, queries: 2 });
    expect(report.noAnswer?.vector.nonsense).toBeUndefined();
    expect(report.text.overall).toEqual({ ndcg: 1, recall: 1, mrr: 1, zero: 0, queries: 1 });
    expect(gateFailures(report)).toEqual([]);
  });

  it('noAnswerFigures: share of zero answers, mean and largest total', () => {
    expect(noAnswerFigures([0, 0, 0])).toEqual({ zero: 1, records: 0, maxRecords: 0, queries: 3 });
    expect(noAnswerFigures([0, 3, 9, 0])).toEqual({ zero: 0.5, records: 3, maxRecords: 9, queries: 4 });
  });

  it('prints them in a table of their own; a set without them prints the two tables as before', async () => {
    const report = await evaluate(queries, async (query) => answers[query]);
    const text = formatReport(report);
    const tables = text.split('\n\n');
    expect(tables).toHaveLength(3);
    expect(tables[0]).not.toContain('nonsense');
    expect(tables[2]).toContain('| query type without relevant offers (queries) |');
    expect(tables[2]).toContain('| nonsense (not gated) (2) | 50% | 50% | 50% | 50% | 17.0 (max 34) |');
    const ranked = await evaluate(queries.slice(0, 1), async (query) => answers[query]);
    expect(ranked.noAnswer).toBeUndefined();
    expect(formatReport(ranked).split('\n\n')).toHaveLength(2);
  });

  it('reads a judged set whose nonsense queries grade nothing, and refuses one that grades an offer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judged-'));
    try {
      const path = join(dir, 'set.json');
      writeFileSync(
        path,
        JSON.stringify({
          catalogue: 'offers.ndjson',
          queries: [
            { type: 'homonym', query: 'brig', relevant: { a: 2 } },
            { type: 'nonsense', query: 'xyzzyqqq', relevant: {} },
            { type: 'nonsense', query: 'zzkkvvx' },
          ],
        }),
      );
      const set = readJudgedSet(path);
      expect(set.catalogue).toBe(join(dir, 'offers.ndjson'));
      expect(set.queries.map((q) => q.relevant)).toEqual([{ a: 2 }, {}, {}]);
      writeFileSync(
        path,
        JSON.stringify({
          catalogue: 'generated:10',
          queries: [{ type: 'nonsense', query: 'x', relevant: { a: 1 } }],
        }),
      );
      expect(() => readJudgedSet(path)).toThrow('query 1: a "nonsense" query grades no offer');
      writeFileSync(
        path,
        JSON.stringify({
          catalogue: 'generated:10',
          queries: [{ type: 'homonym', query: 'x', relevant: {} }],
        }),
      );
      expect(() => readJudgedSet(path)).toThrow(
        'query 1: "relevant" must grade at least one offer id 1 or 2',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
