import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueSourceReader } from '../../catalogue/catalogue-source';
import { EmbeddingModule } from '../../embedding/embedding.module';
import { QueryExpansionModule } from '../../query/glossary/query-expansion.module';
import { SearchMetricsModule } from '../../metrics/search-metrics.module';
import { TextIndexModule } from '../text-index/text-index.module';
import { ApplyStep } from './apply-step';
import { CatalogueReader } from './catalogue-reader';
import { EmbeddingStep } from './embedding-step';
import { OfferPlacing } from './offer-placer';
import { ReindexRun } from './reindex-run.entity';
import { ReindexController } from './reindex.controller';
import { ReindexRepository } from './reindex.repository';
import { ReindexService } from './reindex.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([ReindexRun]),
    EmbeddingModule,
    SearchMetricsModule,
    QueryExpansionModule,
    TextIndexModule,
  ],
  controllers: [ReindexController],
  providers: [
    ReindexService,
    ReindexRepository,
    CatalogueSourceReader,
    CatalogueReader,
    EmbeddingStep,
    ApplyStep,
    OfferPlacing,
  ],
  exports: [ReindexService],
})
export class ReindexModule {}
