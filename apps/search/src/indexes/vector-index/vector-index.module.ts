import { Module } from '@nestjs/common';
import { SearchMetricsModule } from '../../metrics/search-metrics.module';
import { TextIndexModule } from '../text-index/text-index.module';
import { VectorIndexService } from './vector-index.service';

@Module({
  imports: [SearchMetricsModule, TextIndexModule],
  providers: [VectorIndexService],
  exports: [VectorIndexService],
})
export class VectorIndexModule {}
