import { Module } from '@nestjs/common';
import { QueryExpansionModule } from '../../query/glossary/query-expansion.module';
import { ListingModule } from '../../ranking/listing.module';
import { SearchMetricsModule } from '../../metrics/search-metrics.module';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { SearchLog } from './search-log';
import { TravelsController } from './travels.controller';
import { TravelsService } from './travels.service';

@Module({
  imports: [SearchMetricsModule, QueryExpansionModule, ListingModule],
  controllers: [TravelsController],
  providers: [TravelsService, RateLimitGuard, SearchLog],
})
export class TravelsModule {}
