import { Module } from '@nestjs/common';
import { EmbeddingModule } from '../embedding/embedding.module';
import { SearchMetricsModule } from '../metrics/search-metrics.module';
import { TextIndexModule } from '../indexes/text-index/text-index.module';
import { VectorIndexModule } from '../indexes/vector-index/vector-index.module';
import { FilterListingService } from './filter-listing.service';
import { FullTextRanker } from './full-text-ranker';
import { HybridListing } from './hybrid-listing';
import { HybridRanker } from './hybrid-ranker';
import { ListingService } from './listing.service';
import { PgvectorSessions } from './pgvector-sessions';
import { SEARCH_RANKER } from './search-ranker';
import { TravelsRepository } from './travels.repository';

@Module({
  imports: [EmbeddingModule, TextIndexModule, VectorIndexModule, SearchMetricsModule],
  providers: [
    TravelsRepository,
    PgvectorSessions,
    HybridListing,
    ListingService,
    FilterListingService,
    FullTextRanker,
    HybridRanker,
    { provide: SEARCH_RANKER, useExisting: HybridRanker },
  ],
  exports: [TravelsRepository, FilterListingService, SEARCH_RANKER],
})
export class ListingModule {}
