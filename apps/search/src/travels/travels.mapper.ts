import type { InfoDensity } from './dto/travels-query.dto';
import type {
  TravelListingResponseDto,
  TravelRecordDto,
  TravelScoresDto,
} from './dto/travel-listing.response';
import type { ListingRow } from './travels.repository';

/** The scores of the filter-only branch (search-api.md): 1.0, 0.0, 0.0. */
export const FILTER_SCORES: TravelScoresDto = { _relevance_score: 1, semantic_score: 0, tsvector_score: 0 };

/** One record in the shape of its density (search-api.md, "Record shapes by infoDensity"), exactly those fields. */
export function toTravelRecord(
  row: ListingRow,
  density: InfoDensity,
  scores: TravelScoresDto,
): TravelRecordDto {
  const scored = {
    _relevance_score: scores._relevance_score,
    semantic_score: scores.semantic_score,
    tsvector_score: scores.tsvector_score,
  };
  switch (density) {
    case 'min':
      return { id: row.id, name: row.name ?? '', slug: row.slug ?? '', ...scored };
    case 'card':
      return {
        id: row.id,
        name: row.name ?? '',
        description: row.description ?? null,
        rating: row.rating ?? null,
        slug: row.slug ?? '',
        nextDeparture: row.next_departure ?? null,
        ...scored,
      };
    case 'search':
      return {
        id: row.id,
        name: row.name ?? '',
        destination: row.destination_name ?? null,
        discount_club: row.discount_club ?? false,
        is_valid: row.is_valid ?? false,
        travel_ranges: row.categories ?? [],
        departure_dates: row.departure_dates ?? [],
        ...scored,
      };
    case 'full':
      return { ...(row.record ?? { id: row.id }), ...scored };
  }
}

/** A listing's count: exact (`eq`), or the bound it stopped at (`gte`, SEARCH_TOTAL_EXACT_LIMIT). */
export interface CountedTotal {
  total: number;
  relation: 'eq' | 'gte';
}

export function toListingResponse(
  { total, relation }: CountedTotal,
  page: number,
  records: TravelRecordDto[],
): TravelListingResponseDto {
  return {
    totalRecords: total,
    totalRecordsRelation: relation,
    totalFilteredRecords: records.length,
    page,
    records,
  };
}
