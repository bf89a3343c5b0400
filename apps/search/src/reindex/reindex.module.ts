import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueSourceReader } from '../catalogue/catalogue-source';
import { EmbeddingModule } from '../embedding/embedding.module';
import { SearchMetricsModule } from '../metrics/search-metrics';
import { ReindexRun } from './reindex-run.entity';
import { ReindexController } from './reindex.controller';
import { ReindexRepository } from './reindex.repository';
import { ReindexService } from './reindex.service';

@Module({
  imports: [TypeOrmModule.forFeature([ReindexRun]), EmbeddingModule, SearchMetricsModule],
  controllers: [ReindexController],
  providers: [ReindexService, ReindexRepository, CatalogueSourceReader],
  exports: [ReindexService],
})
export class ReindexModule {}
