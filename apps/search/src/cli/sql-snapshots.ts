import type { Sql } from '@rt/database';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { format } from 'sql-formatter';
import { loadSearchConfig } from '../config';
import type { SearchConfig } from '../config';
import { pageRecordsSql } from '../sql/page-records';
import { offerWordsSql, postingsSql } from '../sql/postings';
import { filterStatementsOf, searchRequestOf, searchSessionSql } from './query-statements';
import { semanticSideSql } from '../sql/semantic-side';
import { readQueryText } from '../query/analysis/analysed-query';

const USAGE = `Usage: pnpm sql:snapshots [--out apps/search/sql-snapshots]

Writes the statements the search service builds for a fixed set of GET /travels requests and
for the reindex, one file each (<name>.sql: the request, the values, the statements formatted),
and removes the other
.sql files of the folder. The files are committed; CI writes them again and fails on any
difference, so that a change to the SQL is reviewed as SQL.`;

/**
 * The environment of every snapshot (the service's defaults, with the built-in embedding provider),
 * never the process's: the files must not depend on who writes them.
 */
const FIXED_ENV: Record<string, string> = { APP_ENV: 'local', EMBEDDING_PROVIDER: 'builtin' };

/** The query's embedding stands for one (its values are the provider's, not the statement's). */
const EMBEDDING = '[0.5,0.25,0.125]';
/** The ids of the text side's best records (scored in memory) and of a page. */
const OFFER_IDS = ['TRV-000001', 'TRV-000002', 'TRV-000003'];

const FILTERS = {
  destination: 'gr',
  category: 'beach,wellness',
  dates: '2027-03-01_2027-03-31,2027-07-01_2027-08-15',
  hide_invalid: 'true',
  discountclub: 'true',
  seaside: 'true',
};

interface Snapshot {
  /** The file's name, without `.sql`. */
  name: string;
  /** What the statement is, and which builder makes it (one line). */
  about: string;
  /** The GET /travels query string, as the service receives it; none for the reindex's statements. */
  query?: Record<string, string>;
  /** Settings beside FIXED_ENV. */
  env?: Record<string, string>;
  /** The statement, or the statements run one after the other. */
  build(query: Record<string, string>, config: SearchConfig): Sql | Sql[] | undefined;
}

const filterListing = (query: Record<string, string>, config: SearchConfig) =>
  filterStatementsOf(query, config).listing;
const semanticSide = (query: Record<string, string>, config: SearchConfig) => {
  const request = searchRequestOf(query, config);
  return semanticSideSql(request, readQueryText(request.search), EMBEDDING, OFFER_IDS);
};
const FILTER_LISTING = 'a filter-only page and its exact total (sql/filter-listing.ts: filterListingSql)';
const SEMANTIC_SIDE =
  "a hybrid search's semantic side, given the text side's best ids (sql/semantic-side.ts: semanticSideSql)";

/**
 * One snapshot per statement shape the service runs, each with every clause its builder can write
 * (the filters, the sort, the count limit, every CTE), so that a reviewer reads each shape once. The
 * variants a builder derives by leaving clauses out (no filters, a side turned off, another
 * density's fixed column list) are checked by sql/statements.spec.ts (every value referenced, in
 * order) and by the e2e tests (what they answer), not snapshotted.
 */
const SNAPSHOTS: Snapshot[] = [
  { name: 'filter-listing', about: FILTER_LISTING, query: {}, build: filterListing },
  {
    name: 'filter-listing-filtered-sorted-count-limit',
    about: `${FILTER_LISTING}: every filter, sorted, the count stopping one past SEARCH_TOTAL_EXACT_LIMIT`,
    query: {
      ...FILTERS,
      orderBy: 'departure',
      orderDirection: 'desc',
      page: '3',
      size: '20',
      infoDensity: 'card',
    },
    env: { SEARCH_TOTAL_EXACT_LIMIT: '10000' },
    build: filterListing,
  },
  {
    name: 'filter-listing-facets',
    about:
      "a filter-only page with facets (D-81): the page and the index's generation, the total and the facets counted in memory (sql/filter-listing.ts: filterPageAtGenerationSql)",
    query: {
      ...FILTERS,
      facets: 'category,destination,discountclub,seaside',
      orderBy: 'rating',
      infoDensity: 'min',
    },
    env: { SEARCH_TOTAL_EXACT_LIMIT: '10000' },
    build: filterListing,
  },
  {
    name: 'search-semantic-side',
    about: SEMANTIC_SIDE,
    query: { search: 'santorini beach', ...FILTERS },
    build: semanticSide,
  },
  {
    name: 'search-page-records',
    about:
      "the records of a hybrid search's page, with their similarity (sql/page-records.ts: pageRecordsSql)",
    query: { search: 'santorini beach', infoDensity: 'search' },
    build: (query, config) => pageRecordsSql(searchRequestOf(query, config), OFFER_IDS, EMBEDDING),
  },
  {
    name: 'search-hnsw-session-settings',
    about:
      "the pgvector settings of a search's session, given once per connection, pgvector >= 0.8 (sql/hnsw-session-settings.ts)",
    query: { search: 'santorini beach' },
    build: searchSessionSql,
  },
  {
    name: 'reindex-postings',
    about:
      "the reindex's BM25 indexer: the staged offers' words (their compounds' parts written between, indexes/reindex/offer-compounds.ts), terms, lengths and postings, in its apply transaction (sql/postings.ts: offerWordsSql, postingsSql)",
    build: () => [...offerWordsSql('staged'), ...postingsSql('staged')],
  },
];

/** One configuration per environment: the glossary is read once for each. */
const configs = new Map<string, SearchConfig>();
function configOf(env: Record<string, string> = {}): SearchConfig {
  const key = JSON.stringify(env);
  let config = configs.get(key);
  if (!config) configs.set(key, (config = loadSearchConfig({ ...FIXED_ENV, ...env })));
  return config;
}

/** A value as the comment shows it; the embedding elided. */
function shown(value: unknown): string {
  return value === EMBEDDING ? "(the query's embedding, elided)" : JSON.stringify(value);
}

/** The file of one snapshot: its request, its values and its statements, formatted. */
function snapshotText(snapshot: Snapshot): string {
  const built = snapshot.build(snapshot.query ?? {}, configOf(snapshot.env));
  const statements = built === undefined ? [] : [built].flat();
  if (!statements.length) throw new Error(`${snapshot.name}: no statement`);
  const values = statements.flatMap((sql) => sql.values);
  // each statement numbers its own parameters from $1
  if (statements.length > 1 && values.length)
    throw new Error(`${snapshot.name}: values of several statements`);
  const request = snapshot.query && new URLSearchParams(snapshot.query).toString();
  const env = Object.entries({ ...FIXED_ENV, ...snapshot.env }).map(([name, value]) => `${name}=${value}`);
  const header = [
    `-- Written by \`pnpm sql:snapshots\` (apps/search/src/cli/sql-snapshots.ts); do not edit.`,
    `-- ${snapshot.about}`,
    ...(request === undefined
      ? []
      : [`-- request: GET /travels${request ? `?${request}` : ''}`, `-- settings: ${env.join(' ')}`]),
    ...(values.length
      ? ['-- values:', ...values.map((value, i) => `--   $${i + 1} = ${shown(value)}`)]
      : ['-- values: none']),
  ];
  const statement = format(statements.map((sql) => sql.text).join(';\n'), {
    language: 'postgresql',
    keywordCase: 'preserve',
    dataTypeCase: 'preserve',
    functionCase: 'preserve',
    identifierCase: 'preserve',
    tabWidth: 2,
    expressionWidth: 80,
  });
  return `${header.join('\n')}\n\n${statement}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: resolve(__dirname, '..', '..', 'sql-snapshots') },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const out = values.out;
  const names = new Set(SNAPSHOTS.map((snapshot) => `${snapshot.name}.sql`));
  if (names.size !== SNAPSHOTS.length) throw new Error('two snapshots have the same name');
  await mkdir(out, { recursive: true });
  for (const file of await readdir(out)) {
    if (file.endsWith('.sql') && !names.has(file)) await rm(join(out, file));
  }
  for (const snapshot of SNAPSHOTS) {
    await writeFile(join(out, `${snapshot.name}.sql`), snapshotText(snapshot));
  }
  console.log(`${SNAPSHOTS.length} statement snapshots written to ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
