import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { startApp } from '@rt/database';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { SEARCH_READER } from '../database/database-runtime';
import { EMBEDDING_PROVIDER, toVectorLiteral } from '../embedding/embedding-provider';
import type { EmbeddingProvider } from '../embedding/embedding-provider';
import { loadSearchConfig } from '../config';
import { EMBEDDING_PROVIDERS } from '../embedding/embedding.settings';
import type { EmbeddingProviderName } from '../embedding/embedding.settings';
import { SEARCH_EXTENSIONS } from '../database/extensions';
import { ReindexService } from '../indexes/reindex/reindex.service';
import { TravelsService } from '../http/travels/travels.service';
import { VectorIndexService } from '../indexes/vector-index/vector-index.service';
import { TextIndexService } from '../indexes/text-index/text-index.service';
import { cosineAt, cosineOf } from '../indexes/vector-index/full-precision-vectors';
import { rankingTuningOf } from '../http/travels/travels-request';
import { generateCatalogue, parseGeneratedSource } from '../catalogue/catalogue-generator';
import { CatalogueSourceReader } from '../catalogue/catalogue-source';
import {
  evaluate,
  formatReport,
  gateFailures,
  loadJudgedQueries,
  ndcgAt,
  RANKING_WEIGHTS,
  RANKINGS,
  randomStrings,
  readJudgedSet,
  Report,
} from './relevance';
import type { JudgedSet } from './relevance';
import { ReferenceRanker } from './reference-ranker';

/**
 * `pnpm --filter search relevance [--provider builtin|http] [--judged <file>]`: builds the judged
 * set's catalogue (the committed set: `generated:2000`) in a throw-away embedded database, runs the
 * judged queries (src/relevance/judged-queries.json, or one's own in its format) through the
 * service's ranking with rrfVectorWeight 0 (text), 1 (vector) and the configured default (hybrid),
 * and, for a generated catalogue, through the in-process reference ranker (reference-ranker.ts),
 * and prints nDCG@8, recall@8, MRR and the zero-result rate per query type (for the types without
 * relevant offers, relevance.ts NO_ANSWER_TYPES: the share answering nothing and the records
 * answered), under the set's grading and, when its searches name their language, under the
 * language-first grading (relevance.ts, languageFirstGrades; the offers' languages are read from
 * the catalogue). Exit code 1 when the gate fails (relevance.ts, gateFailures: the set's grading). The SEARCH_* variables
 * tune the hybrid run; with `--provider http`, the EMBEDDING_* variables name the model
 * (apps/search/README.md, "Measuring your own model").
 */
export async function relevanceOf(
  travels: TravelsService,
  judged: JudgedSet = loadJudgedQueries(),
): Promise<Report> {
  const options = parseGeneratedSource(judged.catalogue);
  const reference = options ? new ReferenceRanker(generateCatalogue(options)) : undefined;
  const offerLanguages = judged.queries.some((query) => query.language)
    ? await offerLanguagesOf(judged.catalogue)
    : undefined;
  return evaluate(
    judged.queries,
    async (search, ranking) => {
      if (ranking === 'reference') return reference ? reference.search(search, 8) : [];
      const rrfVectorWeight = RANKING_WEIGHTS[ranking];
      const { body } = await travels.list({ search, rrfVectorWeight, size: 8, infoDensity: 'min' });
      return { ranked: body.records.map((record) => record.id), total: body.totalRecords };
    },
    reference ? RANKINGS : RANKINGS.filter((ranking) => ranking !== 'reference'),
    offerLanguages,
  );
}

/** Each offer's `language` in a catalogue source (a CATALOGUE_SOURCE), by offer id. */
export async function offerLanguagesOf(source: string): Promise<Map<string, string>> {
  const { items } = await new CatalogueSourceReader().open(source, 60_000);
  const languages = new Map<string, string>();
  for await (const item of items) {
    if (item.kind !== 'value') continue;
    const { id, language } = item.value as { id?: unknown; language?: unknown };
    if (typeof id === 'string' && typeof language === 'string') languages.set(id, language);
  }
  return languages;
}

/**
 * The command's options: `--provider` (default builtin), `--judged` (default the committed set) and
 * `--show <type>` (each query of that type: its hybrid nDCG@8 and page, each record with its grade).
 */
export function relevanceOptions(args: string[]): {
  provider: EmbeddingProviderName;
  judged: JudgedSet;
  show?: string;
  random?: number;
  vectorError: boolean;
} {
  const { values } = parseArgs({
    args,
    options: {
      provider: { type: 'string', default: 'builtin' },
      judged: { type: 'string' },
      show: { type: 'string' },
      random: { type: 'string' },
      'vector-error': { type: 'boolean', default: false },
    },
  });
  const random = values.random === undefined ? undefined : Number(values.random);
  if (random !== undefined && !(Number.isInteger(random) && random > 0)) {
    throw new Error(`--random must be a positive number of searches, not "${values.random}"`);
  }
  const provider = values.provider as EmbeddingProviderName;
  if (!EMBEDDING_PROVIDERS.includes(provider)) {
    throw new Error(`--provider must be one of ${EMBEDDING_PROVIDERS.join(', ')}, not "${values.provider}"`);
  }
  return {
    provider,
    judged: values.judged ? readJudgedSet(values.judged) : loadJudgedQueries(),
    show: values.show,
    random,
    vectorError: values['vector-error'] ?? false,
  };
}

/**
 * `--random <n>`: what the semantic side makes of strings of random letters (apps/search/README.md,
 * "Searches that match nothing"): each string's best cosine similarity to an offer (exact, over
 * every offer), and how many records the service's own ranking answers for it.
 */
async function showRandomStrings(app: INestApplication, count: number): Promise<void> {
  const travels = app.get(TravelsService);
  const provider = app.get<EmbeddingProvider>(EMBEDDING_PROVIDER);
  const database = app.get<DataSource>(SEARCH_READER);
  const best: number[] = [];
  let answering = 0;
  let records = 0;
  for (const search of randomStrings(count)) {
    const vector = toVectorLiteral(await provider.embedQuery(search));
    const [nearest] = (await database.query(
      'SELECT max(1 - (embedding <=> $1::vector))::float8 AS similarity FROM travel_offers',
      [vector],
    )) as { similarity: number | null }[];
    best.push(nearest?.similarity ?? 0);
    const served = await travels.list({ search, size: 8, infoDensity: 'min' });
    if (served.body.totalRecords > 0) answering++;
    records += served.body.totalRecords;
  }
  best.sort((a, b) => a - b);
  const at = (share: number) => best[Math.min(best.length - 1, Math.floor(share * best.length))].toFixed(3);
  console.log(
    `${count} random strings: best similarity to an offer p50 ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)}; ` +
      `${answering} answer records (${records} in all) with the service's defaults`,
  );
}

/**
 * `--vector-error`: how far the cosines the replica answers (`semantic_score`, the semantic floor:
 * its vectors re-scored at half precision, D-75) are from pgvector's `1 − (embedding <=> query)`
 * and from the exact cosine of the stored 32-bit floats (in doubles), over every offer for every
 * judged search; beside them, the cosine recomputed from the int8 vectors (their scale cancels),
 * the other way to hold less; and the offers the semantic floor `floor` keeps by one cosine and
 * not by the other.
 */
async function showVectorError(app: INestApplication, judged: JudgedSet, floor: number): Promise<void> {
  const provider = app.get<EmbeddingProvider>(EMBEDDING_PROVIDER);
  const database = app.get<DataSource>(SEARCH_READER);
  const text = app.get(TextIndexService).current();
  const vectors = text && app.get(VectorIndexService).forGeneration(text.generation);
  if (!text || !vectors) throw new Error('--vector-error: the vectors are not in memory');
  const { dimension } = vectors;
  const ordinalOf = new Map(text.ids.map((id, ordinal) => [id, ordinal]));
  const stored = new Float32Array(vectors.offers * dimension);
  const rows = (await database.query('SELECT id, embedding::real[] AS embedding FROM travel_offers')) as {
    id: string;
    embedding: number[];
  }[];
  for (const row of rows) stored.set(row.embedding, ordinalOf.get(row.id)! * dimension);
  const ordinals = Int32Array.from({ length: vectors.offers }, (_, ordinal) => ordinal);
  const held = new Float64Array(vectors.offers);
  const largest = { pgvector: 0, exact: 0, pgvectorExact: 0, int8: 0 };
  let acrossFloor = 0;
  for (const { query } of judged.queries) {
    const embedding = await provider.embedQuery(query);
    vectors.rescoring.cosines(embedding, ordinals, held);
    const pgvector = (await database.query(
      'SELECT id, (1 - (embedding <=> $1::vector))::float8 AS similarity FROM travel_offers',
      [toVectorLiteral(embedding)],
    )) as { id: string; similarity: number | null }[];
    let queryNorm = 0;
    for (let i = 0; i < dimension; i++) queryNorm += embedding[i] * embedding[i];
    for (const row of pgvector) {
      const ordinal = ordinalOf.get(row.id)!;
      const exact = cosineAt(embedding, stored, ordinal * dimension, dimension);
      // pgvector answers NaN for a zero vector, the replica 0
      const similarity = row.similarity ?? 0;
      largest.pgvector = Math.max(largest.pgvector, Math.abs(held[ordinal] - similarity));
      if (held[ordinal] >= floor !== similarity >= floor) acrossFloor++;
      largest.exact = Math.max(largest.exact, Math.abs(held[ordinal] - exact));
      largest.pgvectorExact = Math.max(largest.pgvectorExact, Math.abs(similarity - exact));
      const int8 = vectors.quantized.vector(ordinal);
      let dot = 0;
      let norm = 0;
      for (let i = 0; i < dimension; i++) {
        dot += embedding[i] * int8[i];
        norm += int8[i] * int8[i];
      }
      largest.int8 = Math.max(largest.int8, Math.abs(cosineOf(dot, queryNorm, norm) - exact));
    }
  }
  const e = (value: number) => value.toExponential(2);
  console.log(
    `vector error over ${judged.queries.length} searches × ${vectors.offers} offers: held (half precision) − pgvector ` +
      `max ${e(largest.pgvector)}, held − exact ${e(largest.exact)}, pgvector − exact ${e(largest.pgvectorExact)}; ` +
      `recomputed from int8 − exact ${e(largest.int8)}; offers kept by the semantic floor ${floor} ` +
      `by one of held and pgvector's cosines only: ${acrossFloor}`,
  );
}

/** `--show`: each query of a type, its hybrid nDCG@8 and its page with each record's grade and counted terms. */
async function showQueries(travels: TravelsService, judged: JudgedSet, type: string): Promise<void> {
  for (const query of judged.queries.filter((judgedQuery) => judgedQuery.type === type)) {
    const { body } = await travels.list({ search: query.query, size: 8, infoDensity: 'min', explain: true });
    const ranked = body.records.map((record) => record.id);
    const relevant = query.relevant ?? {};
    // each record: its name, grade, and the terms that counted (`term:kind`), `semantic` when only that side has it
    const page = body.records
      .map((record) => {
        const counted = (record._explanation?.text.terms ?? [])
          .filter((term) => term.counted)
          .map((term) => `${term.term}:${term.kind}`);
        return `${record.name} (${relevant[record.id] ?? 0}; ${counted.join(' ') || 'semantic'})`;
      })
      .join('; ');
    console.log(`${ndcgAt(ranked, relevant).toFixed(3)} ${query.query} [${body.totalRecords}]: ${page}`);
  }
}

async function main(args: string[]): Promise<number> {
  const { provider, judged, show, random, vectorError } = relevanceOptions(args);
  const dataDir = await mkdtemp(join(tmpdir(), 'rt-search-relevance-'));
  const config = {
    ...loadSearchConfig({
      ...process.env,
      LOG_LEVEL: 'warn',
      CATALOGUE_SOURCE: judged.catalogue,
      DATABASE_URL: '',
      EMBEDDING_PROVIDER: provider,
    }),
    DATABASE_URL: undefined,
    reindexOnStart: false,
  };
  try {
    // Migrated through the app's own connection: the embedded database takes one connection at a
    // time, and a second data source raced the first one's close.
    const { app, close } = await startApp(
      { app: 'search', dataDir, extensions: SEARCH_EXTENSIONS, migrate: true },
      (connection) =>
        NestFactory.create(AppModule.forRoot({ config, database: connection }), {
          logger: ['error', 'warn'],
        }),
    );
    await app.init();
    try {
      const outcome = await app.get(ReindexService).run('cli');
      if (outcome.status !== 'succeeded') throw new Error(`reindex: ${JSON.stringify(outcome)}`);
      // the vectors load after the text index: every search ranks with the same semantic side
      await app.get(VectorIndexService).settled();
      const report = await relevanceOf(app.get(TravelsService), judged);
      const hybrid = rankingTuningOf({}, config);
      const model = provider === 'http' ? ` ${config.EMBEDDING_MODEL}` : '';
      console.log(
        `relevance of ${judged.catalogue} (${provider} provider${model}; hybrid: rrfVectorWeight ${hybrid.rrfVectorWeight}, ` +
          `semanticFloor ${hybrid.semanticFloor}, tsvectorFloor ${hybrid.tsvectorFloor}, k ${hybrid.k})`,
      );
      console.log(formatReport(report));
      if (show) await showQueries(app.get(TravelsService), judged, show);
      if (random) await showRandomStrings(app, random);
      if (vectorError) await showVectorError(app, judged, hybrid.semanticFloor);
      const failures = gateFailures(report);
      for (const failure of failures) console.error(`gate: ${failure}`);
      return failures.length ? 1 : 0;
    } finally {
      await close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
