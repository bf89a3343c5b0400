import { Module } from '@nestjs/common';
import { SearchMetricsModule } from '../../metrics/search-metrics.module';
import { QueryExpansionService } from './query-expansion.service';

@Module({
  imports: [SearchMetricsModule],
  providers: [QueryExpansionService],
  exports: [QueryExpansionService],
})
export class QueryExpansionModule {}
