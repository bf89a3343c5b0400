import { Module } from '@nestjs/common';
import { EmbeddingModule } from '../embedding/embedding.module';
import { QueryExpansionModule } from '../glossary/query-expansion.service';
import { SearchMetricsModule } from '../metrics/search-metrics';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { TextIndexModule } from '../text-index/text-index.service';
import { FullTextRanker } from './full-text-ranker';
import { HybridRanker } from './hybrid-ranker';
import { PgvectorSessions } from './pgvector-sessions';
import { SEARCH_RANKER } from './search-ranker';
import { SearchLog } from './search-log';
import { TravelsController } from './travels.controller';
import { TravelsRepository } from './travels.repository';
import { TravelsService } from './travels.service';

@Module({
  imports: [SearchMetricsModule, EmbeddingModule, QueryExpansionModule, TextIndexModule],
  controllers: [TravelsController],
  providers: [
    TravelsService,
    TravelsRepository,
    RateLimitGuard,
    PgvectorSessions,
    SearchLog,
    FullTextRanker,
    HybridRanker,
    { provide: SEARCH_RANKER, useExisting: HybridRanker },
  ],
})
export class TravelsModule {}
