import { Module } from '@nestjs/common';
import { SearchMetricsModule } from '../../metrics/search-metrics.module';
import { QueryExpansionService } from './query-expansion.service';
import { SearchGazetteer } from '../gazetteer/search-gazetteer';

@Module({
  imports: [SearchMetricsModule],
  providers: [QueryExpansionService, SearchGazetteer],
  exports: [QueryExpansionService],
})
export class QueryExpansionModule {}
