import { DynamicModule, Global, Module } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { typeOrmOptions } from '@rt/database';
import { SEARCH_SESSION_SETTINGS } from './database/session-settings';
import { HOLDS_TEXT_INDEX, TextIndexService } from './indexes/text-index/text-index.service';
import { VectorIndexModule } from './indexes/vector-index/vector-index.module';
import { VectorIndexService } from './indexes/vector-index/vector-index.service';
import { TextIndexModule } from './indexes/text-index/text-index.module';
import {
  EXTRA_DATABASE_POOLS,
  HealthModule,
  loggingModule,
  MetricsModule,
  sectionProviders,
} from '@rt/platform';
import { SEARCH_CONFIG, SEARCH_SECTIONS, SearchConfig } from './config';
import {
  READ_DATA_SOURCE_NAME,
  readReplicaUrl,
  SEARCH_DATABASE,
  SEARCH_READER,
} from './database/database-runtime';
import type { DatabaseRuntime } from './database/database-runtime';
import { searchEntities } from './entities';
import { searchMigrations } from './database/migrations';
import { ReplicaLag } from './database/replica-lag';
import { PreviewModule } from './http/preview/preview.module';
import { ReindexModule } from './indexes/reindex/reindex.module';
import { ReindexService } from './indexes/reindex/reindex.service';
import { RootModule } from './http/root/root.module';
import { TravelsModule } from './http/travels/travels.module';
import { WellKnownModule } from './http/well-known/well-known.module';

export interface SearchRuntime {
  config: SearchConfig;
  database: DatabaseRuntime;
  /**
   * Whether this process serves searches and so holds the text index in memory (default); the
   * reindex command and the benchmark's reindex only write it.
   */
  servesSearches?: boolean;
}

@Global()
@Module({})
export class AppModule {
  static forRoot(runtime: SearchRuntime): DynamicModule {
    const readUrl = readReplicaUrl(runtime.database, runtime.config.DATABASE_READ_URL);
    // Listings and searches read from a replica's pool when DATABASE_READ_URL names one; the
    // primary's DataSource (the default one) keeps the reindex, its lock, migrations and writes.
    const readerToken = readUrl ? getDataSourceToken(READ_DATA_SOURCE_NAME) : getDataSourceToken();
    return {
      module: AppModule,
      imports: [
        loggingModule({
          level: runtime.config.LOG_LEVEL,
          format: runtime.config.LOG_FORMAT,
          serviceName: 'search',
        }),
        TypeOrmModule.forRoot(
          typeOrmOptions({
            url: runtime.database.url,
            singleSession: runtime.database.singleSession,
            poolSize: runtime.config.DB_POOL_SIZE,
            entities: searchEntities,
            migrations: searchMigrations,
            applicationName: 'search',
            sessionSettings: SEARCH_SESSION_SETTINGS,
          }),
        ),
        ...(readUrl
          ? [
              TypeOrmModule.forRoot({
                ...typeOrmOptions({
                  url: readUrl,
                  singleSession: false,
                  poolSize: runtime.config.DB_POOL_SIZE,
                  entities: [],
                  migrations: [],
                  applicationName: 'search-read',
                  sessionSettings: SEARCH_SESSION_SETTINGS,
                }),
                name: READ_DATA_SOURCE_NAME,
              }),
            ]
          : []),
        MetricsModule,
        HealthModule.forRoot({
          imports: [ReindexModule, TextIndexModule, VectorIndexModule],
          pingDatabase: SEARCH_READER,
          readinessChecks: {
            inject: [
              ReindexService,
              TextIndexService,
              VectorIndexService,
              ReplicaLag,
              HealthIndicatorService,
            ],
            useFactory: (
              reindex: ReindexService,
              textIndex: TextIndexService,
              vectorIndex: VectorIndexService,
              lag: ReplicaLag,
              indicators: HealthIndicatorService,
            ) => [
              async () =>
                (await reindex.isReady())
                  ? indicators.check('index').up()
                  : indicators.check('index').down({ message: 'the first index build is not done yet' }),
              async () =>
                textIndex.isReady()
                  ? indicators.check('text_index').up()
                  : indicators.check('text_index').down({ message: 'the in-memory text index is loading' }),
              async () =>
                vectorIndex.isReady()
                  ? indicators.check('vector_index').up()
                  : indicators
                      .check('vector_index')
                      .down({ message: 'the in-memory vector index is loading' }),
              // Only with a read pool of its own: reading the primary, there is no lag to bound.
              ...(readUrl
                ? [
                    async () => {
                      const verdict = await lag.verdict();
                      return verdict.ok
                        ? indicators.check('replica').up({ lag_seconds: verdict.lagSeconds })
                        : indicators.check('replica').down({ message: verdict.reason });
                    },
                  ]
                : []),
            ],
          },
        }),
        RootModule,
        TravelsModule,
        ReindexModule,
        WellKnownModule,
        ...(runtime.config.previewEnabled ? [PreviewModule] : []),
      ],
      providers: [
        // The whole configuration, for what truly needs it; a feature is injected its section's class.
        { provide: SEARCH_CONFIG, useValue: runtime.config },
        ...sectionProviders(runtime.config, SEARCH_SECTIONS),
        { provide: SEARCH_DATABASE, useValue: runtime.database },
        { provide: HOLDS_TEXT_INDEX, useValue: runtime.servesSearches ?? true },
        { provide: SEARCH_READER, useExisting: readerToken },
        // The read pool's gauges (`db_pool_*{pool="read"}`) beside the primary's.
        {
          provide: EXTRA_DATABASE_POOLS,
          inject: [SEARCH_READER, DataSource],
          useFactory: (reader: DataSource, primary: DataSource) =>
            reader === primary ? {} : { [READ_DATA_SOURCE_NAME]: reader },
        },
        ReplicaLag,
      ],
      exports: [
        SEARCH_CONFIG,
        ...SEARCH_SECTIONS,
        SEARCH_DATABASE,
        SEARCH_READER,
        HOLDS_TEXT_INDEX,
        EXTRA_DATABASE_POOLS,
        ReplicaLag,
      ],
    };
  }
}
