import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The query types of the judged set (issue 5: "Relevance"). */
export const QUERY_TYPES = [
  'exact_name',
  'destination_theme',
  'short_word',
  'accents',
  'typo',
  'synonym',
  'cross_language',
] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/** Gated: hybrid must do at least as well as each side alone (the built-in provider is lexical). */
export const GATED_TYPES: readonly QueryType[] = [
  'exact_name',
  'destination_theme',
  'short_word',
  'accents',
  'typo',
];

export interface JudgedQuery {
  type: QueryType;
  query: string;
  /** Offer id → grade (2 highly relevant, 1 relevant); absent ids are not relevant. */
  relevant: Record<string, number>;
}

export const CUTOFF = 8;

/** nDCG@k with gains 2^grade − 1 and the ideal ordering of all judged offers. */
export function ndcgAt(ranked: string[], relevant: Record<string, number>, k = CUTOFF): number {
  const gain = (grade: number) => 2 ** grade - 1;
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + gain(relevant[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Relevant offers in the top k over the most the top k can hold (min(k, relevant)), so 1 is reachable. */
export function recallAt(ranked: string[], relevant: Record<string, number>, k = CUTOFF): number {
  const total = Object.values(relevant).filter((grade) => grade > 0).length;
  if (total === 0) return 0;
  const found = ranked.slice(0, k).filter((id) => (relevant[id] ?? 0) > 0).length;
  return found / Math.min(k, total);
}

/** 1 / position of the first relevant offer; 0 when none is ranked. */
export function reciprocalRank(ranked: string[], relevant: Record<string, number>): number {
  const position = ranked.findIndex((id) => (relevant[id] ?? 0) > 0);
  return position < 0 ? 0 : 1 / (position + 1);
}

export interface Figures {
  ndcg: number;
  recall: number;
  mrr: number;
  queries: number;
}

export const RANKINGS = { text: 0, vector: 1, hybrid: undefined } as const;
export type RankingName = keyof typeof RANKINGS;

export type Report = Record<RankingName, Partial<Record<QueryType, Figures>>>;

/**
 * Runs every judged query through `search` (the ranked ids of the first page of size CUTOFF, with
 * `rrfVectorWeight` 0, 1, or the configured default) and averages the three measures per type.
 */
export async function evaluate(
  queries: JudgedQuery[],
  search: (query: string, rrfVectorWeight: number | undefined) => Promise<string[]>,
): Promise<Report> {
  const report = { text: {}, vector: {}, hybrid: {} } as Report;
  for (const [name, weight] of Object.entries(RANKINGS) as [RankingName, number | undefined][]) {
    for (const type of QUERY_TYPES) {
      const ofType = queries.filter((q) => q.type === type);
      if (!ofType.length) continue;
      const sums = { ndcg: 0, recall: 0, mrr: 0 };
      for (const judged of ofType) {
        const ranked = await search(judged.query, weight);
        sums.ndcg += ndcgAt(ranked, judged.relevant);
        sums.recall += recallAt(ranked, judged.relevant);
        sums.mrr += reciprocalRank(ranked, judged.relevant);
      }
      const n = ofType.length;
      report[name][type] = { ndcg: sums.ndcg / n, recall: sums.recall / n, mrr: sums.mrr / n, queries: n };
    }
  }
  return report;
}

/** The gate: on the gated types, hybrid's nDCG@8, recall@8 and MRR are at least each side's (1e-9 slack). */
export function gateFailures(report: Report): string[] {
  const failures: string[] = [];
  for (const type of GATED_TYPES) {
    const hybrid = report.hybrid[type];
    if (!hybrid) continue;
    for (const side of ['text', 'vector'] as const) {
      const other = report[side][type];
      if (!other) continue;
      for (const measure of ['ndcg', 'recall', 'mrr'] as const) {
        if (hybrid[measure] + 1e-9 < other[measure]) {
          failures.push(
            `${type}: hybrid ${measure} ${hybrid[measure].toFixed(3)} < ${side} ${other[measure].toFixed(3)}`,
          );
        }
      }
    }
  }
  return failures;
}

/** The report as a Markdown table (docs/benchmarks.md). */
export function formatReport(report: Report): string {
  const lines = [
    '| query type (queries) | text nDCG@8 | vector nDCG@8 | hybrid nDCG@8 | text R@8 | vector R@8 | hybrid R@8 | text MRR | vector MRR | hybrid MRR |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const f = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(3));
  for (const type of QUERY_TYPES) {
    const [t, v, h] = [report.text[type], report.vector[type], report.hybrid[type]];
    if (!h) continue;
    const gated = GATED_TYPES.includes(type) ? '' : ' (not gated)';
    lines.push(
      `| ${type}${gated} (${h.queries}) | ${f(t?.ndcg)} | ${f(v?.ndcg)} | ${f(h.ndcg)} | ${f(t?.recall)} | ${f(v?.recall)} | ${f(h.recall)} | ${f(t?.mrr)} | ${f(v?.mrr)} | ${f(h.mrr)} |`,
    );
  }
  return lines.join('\n');
}

/** The committed judged set (src/relevance/judged-queries.json; same path from dist). */
export function loadJudgedQueries(): { catalogue: string; queries: JudgedQuery[] } {
  const path = join(__dirname, '..', '..', 'src', 'relevance', 'judged-queries.json');
  return JSON.parse(readFileSync(path, 'utf8')) as { catalogue: string; queries: JudgedQuery[] };
}
