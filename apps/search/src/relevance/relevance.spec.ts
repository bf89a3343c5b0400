import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Answer,
  evaluate,
  formatReport,
  gateFailures,
  JudgedQuery,
  languageFirstGrades,
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

describe('query types without relevant offers (nonsense)', () => {
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

describe('the language-first grading (D-76)', () => {
  const offerLanguages = new Map([
    ['fr1', 'fr'],
    ['fr2', 'fr'],
    ['de1', 'de'],
    ['en1', 'en'],
  ]);

  it("keeps the grades of the offers in the search's language, grades the others at most 1", () => {
    const relevant = { fr1: 2, fr2: 1, de1: 2, en1: 1, unknown: 2 };
    expect(languageFirstGrades({ language: 'fr', relevant }, offerLanguages)).toEqual({
      fr1: 2,
      fr2: 1,
      de1: 1,
      en1: 1,
      unknown: 1,
    });
    expect(languageFirstGrades({ language: 'de', relevant }, offerLanguages)).toEqual({
      fr1: 1,
      fr2: 1,
      de1: 2,
      en1: 1,
      unknown: 1,
    });
    // a search without a language keeps its grades
    expect(languageFirstGrades({ language: null, relevant }, offerLanguages)).toEqual(relevant);
    expect(languageFirstGrades({ relevant }, offerLanguages)).toEqual(relevant);
  });

  it('measures the same answers under both gradings, and prints each under its title', async () => {
    const queries: JudgedQuery[] = [
      { type: 'traveller_own_word', query: 'randonnée', language: 'fr', relevant: { de1: 2, fr1: 2 } },
      { type: 'traveller_short', query: 'ski', language: null, relevant: { de1: 2, fr1: 2 } },
    ];
    const asked: string[] = [];
    const report = await evaluate(
      queries,
      async (query, ranking) => {
        asked.push(`${ranking} ${query}`);
        return ['de1', 'fr1'];
      },
      ['hybrid'],
      offerLanguages,
    );
    expect(asked).toEqual(['hybrid ski', 'hybrid randonnée']);
    expect(report.hybrid.traveller_own_word?.ndcg).toBe(1);
    // the German offer first: 1 before 2, against the ideal 2 before 1
    const ideal = 3 + 1 / Math.log2(3);
    expect(report.languageFirst?.hybrid.traveller_own_word?.ndcg).toBeCloseTo(
      (1 + 3 / Math.log2(3)) / ideal,
      12,
    );
    expect(report.languageFirst?.hybrid.traveller_short).toEqual(report.hybrid.traveller_short);
    expect(report.languageFirst?.text).toEqual({});
    expect(gateFailures(report)).toEqual([]);
    const text = formatReport(report);
    expect(text.startsWith('Grading as judged:\n\n| query type (queries) |')).toBe(true);
    const [asJudged, languageFirst] = text.split(/\n\nLanguage-first grading \(.*\):\n\n/);
    expect(asJudged).toContain('| traveller_own_word (not gated) (1) | – | – | 1.000 |');
    expect(languageFirst).toContain('| traveller_own_word (not gated) (1) | – | – | 0.797 |');
    // its recall@8 and MRR are the first grading's: only the nDCG@8 table
    expect(languageFirst.split('\n\n')).toHaveLength(1);
  });

  it("is left out without the offers' languages or without a search that has one", async () => {
    const queries: JudgedQuery[] = [{ type: 'typo', query: 'q1', relevant: { a: 2 } }];
    const search = async () => ['a'];
    expect((await evaluate(queries, search, ['hybrid'], offerLanguages)).languageFirst).toBeUndefined();
    const french: JudgedQuery[] = [{ ...queries[0], language: 'fr' }];
    expect((await evaluate(french, search, ['hybrid'])).languageFirst).toBeUndefined();
    expect(formatReport(await evaluate(french, search, ['hybrid']))).not.toContain('grading');
  });

  it('reads a set whose searches name their language or none, and refuses another language', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judged-'));
    try {
      const path = join(dir, 'set.json');
      const write = (language: unknown) =>
        writeFileSync(
          path,
          JSON.stringify({
            catalogue: 'offers.ndjson',
            queries: [{ type: 'typo', query: 'x', language, relevant: { a: 2 } }],
          }),
        );
      write('it');
      expect(readJudgedSet(path).queries[0].language).toBe('it');
      write(null);
      expect(readJudgedSet(path).queries[0].language).toBeNull();
      write('es');
      expect(() => readJudgedSet(path)).toThrow('query 1: "language" must be one of fr, de, en, it or null');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the traveller kinds', () => {
  it('are reported, not gated: a search of theirs answering nothing fails no rule of the gate', async () => {
    const queries: JudgedQuery[] = [
      { type: 'traveller_short_typo', query: 'skii', language: null, relevant: { a: 2 } },
      { type: 'homonym', query: 'spa', language: null, relevant: { a: 2 } },
    ];
    const report = await evaluate(queries, async (query) => (query === 'spa' ? ['a'] : []));
    expect(report.hybrid.traveller_short_typo?.zero).toBe(1);
    expect(gateFailures(report)).toEqual([]);
    expect(formatReport(report)).toContain('| traveller_short_typo (not gated) (1) |');
  });
});
