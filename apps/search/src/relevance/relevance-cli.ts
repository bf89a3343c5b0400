import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { startApp } from '@rt/database';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../app.module';
import { loadSearchConfig } from '../config';
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
  RANKING_WEIGHTS,
  Report,
} from './relevance';
import { ReferenceRanker } from './reference-ranker';

/**
 * `pnpm --filter search relevance`: builds the demo catalogue (`generated:2000`, built-in provider)
 * in a throw-away embedded database, runs the judged query set (src/relevance/judged-queries.json)
 * through the service's ranking with rrfVectorWeight 0 (text), 1 (vector) and the configured
 * default (hybrid), and through the in-process reference ranker (reference-ranker.ts), and prints
 * nDCG@8, recall@8, MRR and the zero-result rate per query type. Exit code 1 when the gate fails
 * (relevance.ts, gateFailures). The SEARCH_* variables tune the hybrid run.
 */
export async function relevanceOf(travels: TravelsService): Promise<Report> {
  const { catalogue, queries } = loadJudgedQueries();
  const options = parseGeneratedSource(catalogue);
  if (!options) throw new Error(`the judged set's catalogue is not generated: ${catalogue}`);
  const reference = new ReferenceRanker(generateCatalogue(options));
  return evaluate(queries, async (search, ranking) => {
    if (ranking === 'reference') return reference.search(search, 8);
    const rrfVectorWeight = RANKING_WEIGHTS[ranking];
    const { body } = await travels.list({ search, rrfVectorWeight, size: 8, infoDensity: 'min' });
    return body.records.map((record) => record.id);
  });
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'rt-search-relevance-'));
  const { catalogue } = loadJudgedQueries();
  const config = {
    ...loadSearchConfig({ ...process.env, LOG_LEVEL: 'warn', CATALOGUE_SOURCE: catalogue, DATABASE_URL: '' }),
    DATABASE_URL: undefined,
    EMBEDDING_PROVIDER: 'builtin' as const,
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
      const report = await relevanceOf(app.get(TravelsService));
      const hybrid = rankingTuningOf({}, config);
      console.log(
        `relevance of ${catalogue} (built-in provider; hybrid: rrfVectorWeight ${hybrid.rrfVectorWeight}, ` +
          `semanticFloor ${hybrid.semanticFloor}, tsvectorFloor ${hybrid.tsvectorFloor}, k ${hybrid.k})`,
      );
      console.log(formatReport(report));
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
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
