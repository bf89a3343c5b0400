import { Injectable } from '@nestjs/common';
import { countFilterListing } from '../indexes/text-index/offer-facets';
import { TextIndexService } from '../indexes/text-index/text-index.service';
import type { FilterRequest } from '../request/listing-request';
import { retryWhileGenerationChanges } from './listing-retries';
import { GENERATION_CHANGED } from './listing-row';
import type { GenerationChanged, ListingResult } from './listing-row';
import { TravelsRepository } from './travels.repository';

/**
 * Filter-only listings (no search). Without facets: the page and its total from one statement
 * (TravelsRepository.listFiltered). With facets (docs/decisions.md D-81): the total and the facets
 * counted in the replica's memory from the text index's filter columns, as a search's are, and the
 * page read by a statement that also reads the generation; a page of another generation than the
 * index's waits for its load and runs again (D-63), so the counts, the total and the page describe
 * one catalogue. PostgreSQL no longer scans the set to count it.
 */
@Injectable()
export class FilterListingService {
  constructor(
    private readonly travels: TravelsRepository,
    private readonly textIndex: TextIndexService,
  ) {}

  list(request: FilterRequest): Promise<ListingResult> {
    const fields = request.facets;
    if (!fields) return this.travels.listFiltered(request);
    return retryWhileGenerationChanges(
      async (): Promise<ListingResult | GenerationChanged> => {
        const index = await this.textIndex.loaded();
        const { total, facets } = countFilterListing(
          index.filters,
          request.filters,
          fields,
          request.countLimit,
        );
        const rows = await this.travels.pageAt(request, index.generation);
        return rows === GENERATION_CHANGED ? rows : { total, rows, facets };
      },
      () => this.textIndex.refresh(),
    );
  }
}
