import { DynamicModule, Global, Module } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { typeOrmOptions } from '@rt/database';
import { HealthModule, loggingModule, MetricsModule } from '@rt/platform';
import { SEARCH_CONFIG, SearchConfig } from './config';
import { SEARCH_DATABASE } from './database/database-runtime';
import type { DatabaseRuntime } from './database/database-runtime';
import { searchEntities } from './database/entities';
import { searchMigrations } from './database/migrations';
import { ReindexModule } from './reindex/reindex.module';
import { ReindexService } from './reindex/reindex.service';
import { RootModule } from './root/root.module';
import { TravelsModule } from './travels/travels.module';
import { WellKnownModule } from './well-known/well-known.module';

export interface SearchRuntime {
  config: SearchConfig;
  database: DatabaseRuntime;
}

@Global()
@Module({})
export class AppModule {
  static forRoot(runtime: SearchRuntime): DynamicModule {
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
          }),
        ),
        MetricsModule,
        HealthModule.forRoot({
          imports: [ReindexModule],
          readinessChecks: {
            inject: [ReindexService, HealthIndicatorService],
            useFactory: (reindex: ReindexService, indicators: HealthIndicatorService) => [
              async () =>
                (await reindex.isReady())
                  ? indicators.check('index').up()
                  : indicators.check('index').down({ message: 'the first index build is not done yet' }),
            ],
          },
        }),
        RootModule,
        TravelsModule,
        ReindexModule,
        WellKnownModule,
      ],
      providers: [
        { provide: SEARCH_CONFIG, useValue: runtime.config },
        { provide: SEARCH_DATABASE, useValue: runtime.database },
      ],
      exports: [SEARCH_CONFIG, SEARCH_DATABASE],
    };
  }
}
