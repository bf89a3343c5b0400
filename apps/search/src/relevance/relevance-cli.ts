import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { startApp } from '@rt/database';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AppModule } from '../app.module';
import { EMBEDDING_PROVIDERS, loadSearchConfig } from '../config';
import type { EmbeddingProviderName } from '../config';
import { SEARCH_EXTENSIONS } from '../database/extensions';
import { ReindexService } from '../reindex/reindex.service';
import { TravelsService } from '../travels/travels.service';
import { rankingTuningOf } from '../travels/travels-request';
import { generateCatalogue, parseGeneratedSource } from '../catalogue/catalogue-generator';
import {
  evaluate,
  formatReport,
  gateFailures,
  loadJudgedQueries,
  ndcgAt,
  RANKING_WEIGHTS,
  RANKINGS,
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
 * answered). Exit code 1 when the gate fails (relevance.ts, gateFailures). The SEARCH_* variables
 * tune the hybrid run; with `--provider http`, the EMBEDDING_* variables name the model
 * (apps/search/README.md, "Measuring your own model").
 */
export async function relevanceOf(
  travels: TravelsService,
  judged: JudgedSet = loadJudgedQueries(),
): Promise<Report> {
  const options = parseGeneratedSource(judged.catalogue);
  const reference = options ? new ReferenceRanker(generateCatalogue(options)) : undefined;
  return evaluate(
    judged.queries,
    async (search, ranking) => {
      if (ranking === 'reference') return reference ? reference.search(search, 8) : [];
      const rrfVectorWeight = RANKING_WEIGHTS[ranking];
      const { body } = await travels.list({ search, rrfVectorWeight, size: 8, infoDensity: 'min' });
      return { ranked: body.records.map((record) => record.id), total: body.totalRecords };
    },
    reference ? RANKINGS : RANKINGS.filter((ranking) => ranking !== 'reference'),
  );
}

/**
 * The command's options: `--provider` (default builtin), `--judged` (default the committed set) and
 * `--show <type>` (each query of that type: its hybrid nDCG@8 and page, each record with its grade).
 */
export function relevanceOptions(args: string[]): {
  provider: EmbeddingProviderName;
  judged: JudgedSet;
  show?: string;
} {
  const { values } = parseArgs({
    args,
    options: {
      provider: { type: 'string', default: 'builtin' },
      judged: { type: 'string' },
      show: { type: 'string' },
    },
  });
  const provider = values.provider as EmbeddingProviderName;
  if (!EMBEDDING_PROVIDERS.includes(provider)) {
    throw new Error(`--provider must be one of ${EMBEDDING_PROVIDERS.join(', ')}, not "${values.provider}"`);
  }
  return {
    provider,
    judged: values.judged ? readJudgedSet(values.judged) : loadJudgedQueries(),
    show: values.show,
  };
}

/** `--show`: each query of a type, its hybrid nDCG@8 and its page with each record's grade. */
async function showQueries(travels: TravelsService, judged: JudgedSet, type: string): Promise<void> {
  for (const query of judged.queries.filter((judgedQuery) => judgedQuery.type === type)) {
    const { body } = await travels.list({ search: query.query, size: 8, infoDensity: 'min' });
    const ranked = body.records.map((record) => record.id);
    const relevant = query.relevant ?? {};
    const page = body.records.map((record) => `${record.name} (${relevant[record.id] ?? 0})`).join('; ');
    console.log(`${ndcgAt(ranked, relevant).toFixed(3)} ${query.query} [${body.totalRecords}]: ${page}`);
  }
}

async function main(args: string[]): Promise<number> {
  const { provider, judged, show } = relevanceOptions(args);
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
      const report = await relevanceOf(app.get(TravelsService), judged);
      const hybrid = rankingTuningOf({}, config);
      const model = provider === 'http' ? ` ${config.EMBEDDING_MODEL}` : '';
      console.log(
        `relevance of ${judged.catalogue} (${provider} provider${model}; hybrid: rrfVectorWeight ${hybrid.rrfVectorWeight}, ` +
          `semanticFloor ${hybrid.semanticFloor}, tsvectorFloor ${hybrid.tsvectorFloor}, k ${hybrid.k})`,
      );
      console.log(formatReport(report));
      if (show) await showQueries(app.get(TravelsService), judged, show);
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
