import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The kinds of search as travellers type them, one `traveller_*` type each (the multilingual set). */
const TRAVELLER_KINDS = [
  'traveller_short',
  'traveller_unaccented',
  'traveller_transposed',
  'traveller_departure_city',
  'traveller_own_word',
  'traveller_multiword',
  'traveller_unknown_word',
  'traveller_short_typo',
] as const;

/**
 * The kinds of the traveller's words the multilingual set's second round of searches measures, one
 * `words_*` type each; `words_function_word` (random strings around one function word) answers
 * nothing when right, as `nonsense` does.
 */
const WORDS_KINDS = [
  'words_language_first',
  'words_loanword_typo',
  'words_real_word',
  'words_function_word',
  'words_sentence',
  'words_own_synonym',
  'words_item_theme',
  'words_frequent_theme',
  'words_compound_offer',
] as const;

/**
 * The kinds of place the multilingual set's searches of the world measure, one `world_*` type each:
 * a region wider than any destination, a kind of place, a town no offer names, a place no offer is
 * in (whose best answer is the offers near it: judged, not a no-answer type).
 */
const WORLD_KINDS = ['world_region', 'world_kind_of_place', 'world_town_unnamed', 'world_no_offer'] as const;

/** The generated set's query types drawn from the generator's words (build-judgements.ts). */
const DRAWN_QUERY_TYPES = [
  'exact_name',
  'destination_theme',
  'short_word',
  'accents',
  'typo',
  'synonym',
  'cross_language',
  'long',
] as const;

/**
 * The query types of the judged sets: the generated set's (build-judgements.ts: eight drawn from
 * the generator's words, `long` among them, then three written by hand as travellers type them),
 * then the multilingual set's (judged-multilingual.json: build-multilingual-judgements.ts), whose
 * `traveller_*` types after `nonsense` are one per kind of search travellers type, then one `words_*`
 * type per kind of the traveller's words, then one `world_*` type per kind of place.
 */
export const QUERY_TYPES = [
  ...DRAWN_QUERY_TYPES,
  'traveller_cross_language',
  'traveller_synonym',
  'mixed_or_italian',
  'concept',
  'compound',
  'homonym',
  'destination',
  'nonsense',
  ...TRAVELLER_KINDS,
  ...WORDS_KINDS,
  ...WORLD_KINDS,
] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/**
 * Query types whose queries have no relevant offer (`nonsense`: random strings such as "xyzzyqqq";
 * `words_function_word`: random strings around one function word, "qqxvzk in wbrtlp"):
 * success is answering no record at all. They are measured by the share of their queries answering
 * nothing and by the records they answer (`totalRecords`), not by nDCG, recall or MRR (undefined
 * without a relevant offer), and are left out of the ranked figures, `overall` and the gate
 * (`Report.noAnswer`).
 */
export const NO_ANSWER_TYPES: readonly QueryType[] = ['nonsense', 'words_function_word'];

/**
 * Gated: hybrid must do at least as well as each side alone (the built-in provider is lexical),
 * and at least as well as the reference ranker in nDCG@8. Synonyms and other languages need a
 * language model (the HTTP provider): reported, not gated.
 */
export const GATED_TYPES: readonly QueryType[] = [
  'exact_name',
  'destination_theme',
  'short_word',
  'accents',
  'typo',
  'long',
];
/**
 * The traveller kinds, the kinds of the traveller's words and the kinds of place of the multilingual set, committed
 * with their "before" figures ahead of the ranking changes that address them: reported only, left
 * out of every rule of the gate, even the one that hybrid answers each query (before the ranking of
 * the first round, no 4-letter typo such as "skii" answered anything).
 */
export const REPORTED_ONLY_TYPES: readonly QueryType[] = [...TRAVELLER_KINDS, ...WORDS_KINDS, ...WORLD_KINDS];
/** Text alone may answer nothing to at most this share of these types' queries. */
export const TEXT_ZERO_RESULT_TYPES: readonly QueryType[] = ['typo', 'long'];
export const TEXT_MAX_ZERO_RESULT_RATE = 0.1;
/**
 * Hybrid's mean nDCG@8 over the queries of these types (the set the margin was measured on) must
 * beat the reference's by OVERALL_MARGIN. The types written by hand as travellers type them are left
 * out: they measure what the text side does not know yet, and have targets of their own
 * (docs/benchmarks.md).
 */
export const OVERALL_MARGIN_TYPES: readonly QueryType[] = DRAWN_QUERY_TYPES;
export const OVERALL_MARGIN = 0.05;

/** The languages a judged search is written in: the offers' languages (docs/relevance-multilingual.md). */
export const SEARCH_LANGUAGES = ['fr', 'de', 'en', 'it'] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

export interface JudgedQuery {
  type: QueryType;
  query: string;
  /**
   * The language its writer meant, not the service's guess; `null` for none (a nonsense or
   * language-neutral search: docs/relevance-multilingual.md, "The search's language"). Absent in a
   * set that does not say, read as none.
   */
  language?: SearchLanguage | null;
  /**
   * Offer id → grade (2 highly relevant, 1 relevant); absent ids are not relevant. Empty for the
   * queries of NO_ANSWER_TYPES.
   */
  relevant: Record<string, number>;
}

/**
 * The language-first grading of a judged search (D-76): an offer in the search's language keeps
 * its grade, an offer in another language (or of no known language) is graded at most 1; a search
 * without a language keeps its grades. So 2 is the search's intent in its own language only.
 */
export function languageFirstGrades(
  query: Pick<JudgedQuery, 'language' | 'relevant'>,
  offerLanguages: ReadonlyMap<string, string>,
): Record<string, number> {
  const { language, relevant } = query;
  if (!language) return relevant;
  return Object.fromEntries(
    Object.entries(relevant).map(([id, grade]) => [
      id,
      offerLanguages.get(id) === language ? grade : Math.min(grade, 1),
    ]),
  );
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
  /** Share of the queries answered with no record at all. */
  zero: number;
  queries: number;
}

/**
 * The rankings measured: the service with `rrfVectorWeight` 0 (text), 1 (vector) and the configured
 * default (hybrid), and the in-process reference ranker (reference-ranker.ts).
 */
export const RANKINGS = ['text', 'vector', 'hybrid', 'reference'] as const;
export type RankingName = (typeof RANKINGS)[number];
export const RANKING_WEIGHTS: Record<Exclude<RankingName, 'reference'>, number | undefined> = {
  text: 0,
  vector: 1,
  hybrid: undefined,
};

/** What the queries of a NO_ANSWER_TYPES type answered. */
export interface NoAnswerFigures {
  /** Share of the queries answered with no record at all: 1 is the goal. */
  zero: number;
  /** Mean number of records answered (`totalRecords`; the page's length when the ranking gives no total). */
  records: number;
  /** The most records one query answered. */
  maxRecords: number;
  queries: number;
}

/** A ranking's figures per query type and over every ranked query. */
export type RankedFigures = Partial<Record<QueryType | 'overall', Figures>>;

export type Report = Record<RankingName, RankedFigures> & {
  /** The NO_ANSWER_TYPES present in the judged set, per ranking; absent when there are none. */
  noAnswer?: Record<RankingName, Partial<Record<QueryType, NoAnswerFigures>>>;
  /**
   * The same answers under the language-first grading (languageFirstGrades), per ranking; present
   * when the offers' languages were given and a query has a language. Reported, never gated.
   */
  languageFirst?: Record<RankingName, RankedFigures>;
};

/** A ranking's answer to a query: the ranked ids of the first page and the number of records answered. */
export interface Answer {
  ranked: string[];
  total: number;
}

/** An answer given as the page's ids alone counts the page's length as its total. */
function toAnswer(answer: string[] | Answer): Answer {
  return Array.isArray(answer) ? { ranked: answer, total: answer.length } : answer;
}

/** The figures of a NO_ANSWER_TYPES type from the totals its queries answered. */
export function noAnswerFigures(totals: number[]): NoAnswerFigures {
  return {
    zero: totals.filter((total) => total === 0).length / totals.length,
    records: totals.reduce((sum, total) => sum + total, 0) / totals.length,
    maxRecords: Math.max(...totals),
    queries: totals.length,
  };
}

/**
 * Runs every judged query through `search` (the ranked ids of the first page of size CUTOFF, for
 * each ranking, with the number of records answered when the ranking knows it) and averages the
 * measures per type, and over every query (`overall`); the types of NO_ANSWER_TYPES are measured
 * apart (`noAnswer`: noAnswerFigures). Given the offers' languages (offer id → language), the same
 * answers are also measured under the language-first grading (`languageFirst`).
 */
export async function evaluate(
  queries: JudgedQuery[],
  search: (query: string, ranking: RankingName) => Promise<string[] | Answer>,
  rankings: readonly RankingName[] = RANKINGS,
  offerLanguages?: ReadonlyMap<string, string>,
): Promise<Report> {
  const report = { text: {}, vector: {}, hybrid: {}, reference: {} } as Report;
  const languageFirst =
    offerLanguages && queries.some((query) => query.language)
      ? ({ text: {}, vector: {}, hybrid: {}, reference: {} } as Record<RankingName, RankedFigures>)
      : undefined;
  for (const name of rankings) {
    const answered: { judged: JudgedQuery; ranked: string[] }[] = [];
    for (const type of QUERY_TYPES) {
      const ofType = queries.filter((q) => q.type === type);
      if (!ofType.length) continue;
      if (NO_ANSWER_TYPES.includes(type)) {
        const totals: number[] = [];
        for (const judged of ofType) totals.push(toAnswer(await search(judged.query, name)).total);
        report.noAnswer ??= { text: {}, vector: {}, hybrid: {}, reference: {} };
        report.noAnswer[name][type] = noAnswerFigures(totals);
        continue;
      }
      for (const judged of ofType)
        answered.push({ judged, ranked: toAnswer(await search(judged.query, name)).ranked });
    }
    report[name] = rankedFigures(answered, (judged) => judged.relevant);
    if (languageFirst && offerLanguages) {
      languageFirst[name] = rankedFigures(answered, (judged) => languageFirstGrades(judged, offerLanguages));
    }
  }
  if (languageFirst) report.languageFirst = languageFirst;
  return report;
}

/** The mean measures of ranked answers per type (in QUERY_TYPES' order) and overall, under a grading. */
function rankedFigures(
  answered: { judged: JudgedQuery; ranked: string[] }[],
  gradesOf: (judged: JudgedQuery) => Record<string, number>,
): RankedFigures {
  const figures: RankedFigures = {};
  const all = { ndcg: 0, recall: 0, mrr: 0, zero: 0, queries: 0 };
  for (const type of QUERY_TYPES) {
    const ofType = answered.filter(({ judged }) => judged.type === type);
    if (!ofType.length) continue;
    const sums = { ndcg: 0, recall: 0, mrr: 0, zero: 0 };
    for (const { judged, ranked } of ofType) {
      const relevant = gradesOf(judged);
      sums.ndcg += ndcgAt(ranked, relevant);
      sums.recall += recallAt(ranked, relevant);
      sums.mrr += reciprocalRank(ranked, relevant);
      sums.zero += ranked.length === 0 ? 1 : 0;
    }
    const n = ofType.length;
    figures[type] = {
      ndcg: sums.ndcg / n,
      recall: sums.recall / n,
      mrr: sums.mrr / n,
      zero: sums.zero / n,
      queries: n,
    };
    for (const key of ['ndcg', 'recall', 'mrr', 'zero'] as const) all[key] += sums[key];
    all.queries += n;
  }
  if (all.queries) {
    figures.overall = {
      ndcg: all.ndcg / all.queries,
      recall: all.recall / all.queries,
      mrr: all.mrr / all.queries,
      zero: all.zero / all.queries,
      queries: all.queries,
    };
  }
  return figures;
}

/**
 * The gate (1e-9 slack): on the gated types, hybrid's nDCG@8, recall@8 and MRR are at least text's
 * and vector's, and its nDCG@8 at least the reference's; over OVERALL_MARGIN_TYPES' queries,
 * hybrid's mean nDCG@8 is at least the reference's + OVERALL_MARGIN; hybrid answers every query (each judged query has a relevant
 * offer; REPORTED_ONLY_TYPES aside); text alone answers nothing to at most
 * TEXT_MAX_ZERO_RESULT_RATE of the typo and long queries. The language-first grading is not gated.
 */
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
    const reference = report.reference[type];
    if (reference && hybrid.ndcg + 1e-9 < reference.ndcg) {
      failures.push(
        `${type}: hybrid ndcg ${hybrid.ndcg.toFixed(3)} < reference ${reference.ndcg.toFixed(3)}`,
      );
    }
  }
  const [hybrid, reference] = [meanNdcg(report, 'hybrid'), meanNdcg(report, 'reference')];
  if (hybrid !== undefined && reference !== undefined && hybrid + 1e-9 < reference + OVERALL_MARGIN) {
    failures.push(
      `overall: hybrid ndcg ${hybrid.toFixed(3)} < reference ${reference.toFixed(3)} + ${OVERALL_MARGIN}`,
    );
  }
  for (const type of QUERY_TYPES) {
    const figures = report.hybrid[type];
    if (figures && figures.zero > 0 && !REPORTED_ONLY_TYPES.includes(type)) {
      failures.push(`${type}: hybrid answers nothing to ${(figures.zero * 100).toFixed(0)}% of the queries`);
    }
  }
  for (const type of TEXT_ZERO_RESULT_TYPES) {
    const figures = report.text[type];
    if (figures && figures.zero > TEXT_MAX_ZERO_RESULT_RATE + 1e-9) {
      failures.push(
        `${type}: text answers nothing to ${(figures.zero * 100).toFixed(0)}% of the queries (> ${TEXT_MAX_ZERO_RESULT_RATE * 100}%)`,
      );
    }
  }
  return failures;
}

/** Mean nDCG@8 of a ranking over the queries of OVERALL_MARGIN_TYPES; undefined without any. */
function meanNdcg(report: Report, ranking: RankingName): number | undefined {
  const figures = OVERALL_MARGIN_TYPES.map((type) => report[ranking][type]).filter(
    (f): f is Figures => f !== undefined,
  );
  const queries = figures.reduce((sum, f) => sum + f.queries, 0);
  return queries ? figures.reduce((sum, f) => sum + f.ndcg * f.queries, 0) / queries : undefined;
}

/**
 * The report as Markdown tables (docs/benchmarks.md): nDCG@8 and zero-result rate, then recall@8 and
 * MRR; then, when the set has NO_ANSWER_TYPES queries, their share answering nothing and the
 * records they answered. With a language-first grading (`languageFirst`), each grading follows a
 * title line, the grading as judged first, then the language-first nDCG@8 (its recall@8 and MRR are
 * the first grading's: the same offers are relevant).
 */
export function formatReport(report: Report): string {
  const lines = [...ndcgTable(report), '', ...recallTable(report)];
  const noAnswer = report.noAnswer;
  const noAnswerRows = noAnswer
    ? QUERY_TYPES.filter((type) => RANKINGS.some((name) => noAnswer[name][type]))
    : [];
  if (noAnswer && noAnswerRows.length) {
    const records = (figures: NoAnswerFigures | undefined) =>
      figures === undefined ? '–' : `${figures.records.toFixed(1)} (max ${figures.maxRecords})`;
    lines.push(
      '',
      '| query type without relevant offers (queries) | text answers none | vector answers none | hybrid answers none | reference answers none | text records (mean, max) | vector records | hybrid records | reference records |',
      '|---|---|---|---|---|---|---|---|---|',
      ...noAnswerRows.map((type) => {
        const [t, v, h, r] = RANKINGS.map((name) => noAnswer[name][type]);
        return `| ${type} (not gated) (${(t ?? v ?? h ?? r)?.queries}) | ${percent(t?.zero)} | ${percent(v?.zero)} | ${percent(h?.zero)} | ${percent(r?.zero)} | ${records(t)} | ${records(v)} | ${records(h)} | ${records(r)} |`;
      }),
    );
  }
  if (!report.languageFirst) return lines.join('\n');
  return [
    'Grading as judged:',
    '',
    ...lines,
    '',
    "Language-first grading (an offer in another language than the search's graded at most 1; a search without a language as judged; not gated; recall@8 and MRR as judged, the same offers being relevant):",
    '',
    ...ndcgTable(report.languageFirst),
  ].join('\n');
}

const formatted = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(3));
const percent = (value: number | undefined) => (value === undefined ? '–' : `${(value * 100).toFixed(0)}%`);

/** The rows of the ranked tables (the types hybrid measured, then overall) and their labels. */
function rankedRows(figures: Record<RankingName, RankedFigures>): [QueryType | 'overall', string][] {
  return [...QUERY_TYPES, 'overall' as const]
    .filter((type) => figures.hybrid[type])
    .map((type) => [
      type,
      `${type}${type === 'overall' || GATED_TYPES.includes(type) ? '' : ' (not gated)'} (${figures.hybrid[type]?.queries})`,
    ]);
}

/** The table of nDCG@8 and zero-result rate per type and ranking. */
function ndcgTable(figures: Record<RankingName, RankedFigures>): string[] {
  return [
    '| query type (queries) | text nDCG@8 | vector nDCG@8 | hybrid nDCG@8 | reference nDCG@8 | text zero | vector zero | hybrid zero | reference zero |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rankedRows(figures).map(([type, label]) => {
      const [t, v, h, r] = RANKINGS.map((name) => figures[name][type]);
      return `| ${label} | ${formatted(t?.ndcg)} | ${formatted(v?.ndcg)} | ${formatted(h?.ndcg)} | ${formatted(r?.ndcg)} | ${percent(t?.zero)} | ${percent(v?.zero)} | ${percent(h?.zero)} | ${percent(r?.zero)} |`;
    }),
  ];
}

/** The table of recall@8 and MRR per type and ranking. */
function recallTable(figures: Record<RankingName, RankedFigures>): string[] {
  return [
    '| query type (queries) | text R@8 | vector R@8 | hybrid R@8 | reference R@8 | text MRR | vector MRR | hybrid MRR | reference MRR |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rankedRows(figures).map(([type, label]) => {
      const [t, v, h, r] = RANKINGS.map((name) => figures[name][type]);
      return `| ${label} | ${formatted(t?.recall)} | ${formatted(v?.recall)} | ${formatted(h?.recall)} | ${formatted(r?.recall)} | ${formatted(t?.mrr)} | ${formatted(v?.mrr)} | ${formatted(h?.mrr)} | ${formatted(r?.mrr)} |`;
    }),
  ];
}

/** A judged set: its catalogue (a CATALOGUE_SOURCE: `generated:N`, a file or a URL) and its queries. */
export interface JudgedSet {
  catalogue: string;
  queries: JudgedQuery[];
}

/** The committed judged set (src/relevance/judged-queries.json; same path from dist). */
export function loadJudgedQueries(): JudgedSet {
  return readJudgedSet(join(__dirname, '..', '..', 'src', 'relevance', 'judged-queries.json'));
}

/**
 * A judged set from a JSON file in the committed set's format, checked: a catalogue file named by a
 * relative path is found beside the set; each query has a known type, a text, a language of
 * SEARCH_LANGUAGES, `null` or none, and at least one offer graded 1 or 2, except the queries of
 * NO_ANSWER_TYPES, which grade none (`relevant` `{}` or absent).
 */
export function readJudgedSet(path: string): JudgedSet {
  const set = JSON.parse(readFileSync(path, 'utf8')) as Partial<JudgedSet>;
  const problem = (message: string) => new Error(`judged set ${path}: ${message}`);
  if (typeof set.catalogue !== 'string' || !set.catalogue)
    throw problem('"catalogue" must name a catalogue source');
  if (!Array.isArray(set.queries) || !set.queries.length)
    throw problem('"queries" must be a non-empty array');
  set.queries.forEach((query: Partial<JudgedQuery>, i) => {
    if (!QUERY_TYPES.includes(query.type as QueryType)) {
      throw problem(`query ${i + 1}: "type" must be one of ${QUERY_TYPES.join(', ')}`);
    }
    if (typeof query.query !== 'string' || !query.query.trim())
      throw problem(`query ${i + 1}: "query" must be a text`);
    if (
      query.language !== undefined &&
      query.language !== null &&
      !SEARCH_LANGUAGES.includes(query.language)
    ) {
      throw problem(`query ${i + 1}: "language" must be one of ${SEARCH_LANGUAGES.join(', ')} or null`);
    }
    const grades = Object.values(query.relevant ?? {});
    if (NO_ANSWER_TYPES.includes(query.type as QueryType)) {
      if (grades.length) throw problem(`query ${i + 1}: a "${query.type}" query grades no offer`);
    } else if (!grades.length || grades.some((grade) => grade !== 1 && grade !== 2)) {
      throw problem(`query ${i + 1}: "relevant" must grade at least one offer id 1 or 2`);
    }
  });
  const local = !/^(generated:|https?:\/\/)/.test(set.catalogue) && !isAbsolute(set.catalogue);
  return {
    catalogue: local ? resolve(dirname(path), set.catalogue) : set.catalogue,
    queries: set.queries.map((query) => ({ ...query, relevant: query.relevant ?? {} })),
  };
}

/** `count` strings of random letters (6 to 12, sometimes two words), the same every run. */
export function randomStrings(count: number, seed = 37): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const word = () =>
    Array.from({ length: 6 + Math.floor(next() * 7) }, () =>
      String.fromCharCode(97 + Math.floor(next() * 26)),
    ).join('');
  return Array.from({ length: count }, () => (next() < 0.25 ? `${word()} ${word()}` : word()));
}
