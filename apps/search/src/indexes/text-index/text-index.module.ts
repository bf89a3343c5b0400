import { Module } from '@nestjs/common';
import { QueryExpansionModule } from '../../query/glossary/query-expansion.module';
import { SearchMetricsModule } from '../../metrics/search-metrics.module';
import { QueryAnalysisService } from './query-analysis.service';
import { TextIndexService } from './text-index.service';

@Module({
  imports: [SearchMetricsModule, QueryExpansionModule],
  providers: [TextIndexService, QueryAnalysisService],
  exports: [TextIndexService, QueryAnalysisService],
})
export class TextIndexModule {}
