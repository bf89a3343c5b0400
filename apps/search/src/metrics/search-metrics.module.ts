import { Module } from '@nestjs/common';
import { MetricsModule } from '@rt/platform';
import { SearchMetrics } from './search-metrics';

@Module({
  imports: [MetricsModule],
  providers: [SearchMetrics],
  exports: [SearchMetrics],
})
export class SearchMetricsModule {}
