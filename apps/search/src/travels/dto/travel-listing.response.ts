import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';

/** The three scores every record carries (search-api.md, "Score fields added to every record"). */
export class TravelScoresDto {
  @ApiProperty({ description: 'RRF score with a search; 1.0 without.', example: 1 })
  _relevance_score!: number;

  @ApiProperty({
    description: 'Cosine similarity (1 − vector distance) with a search; 0.0 without.',
    example: 0,
  })
  semantic_score!: number;

  @ApiProperty({
    description:
      "The text side's score with a search (BM25 over the offer's name, destination, categories and description, " +
      'times the share of the query it covers; 0 when it holds no query word; unbounded above, typically 0–60 on the demo catalogue); 0.0 without.',
    example: 0,
  })
  tsvector_score!: number;
}

export class TravelMinDto extends TravelScoresDto {
  @ApiProperty({ example: 'TRV-000042' })
  id!: string;

  @ApiProperty({ example: 'Escapade gourmande à Lyon' })
  name!: string;

  @ApiProperty({ example: 'escapade-gourmande-a-lyon-42' })
  slug!: string;
}

export class TravelCardDto extends TravelMinDto {
  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Average of the customer comments.',
    example: 4.62,
  })
  rating!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Next departure, local date-time without offset.',
    example: '2026-12-04T08:30:00',
  })
  nextDeparture!: string | null;
}

export class TravelSearchDto extends TravelScoresDto {
  @ApiProperty({ example: 'TRV-000042' })
  id!: string;

  @ApiProperty({ example: 'Escapade gourmande à Lyon' })
  name!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The country name (not the ISO-2 code the destination filter takes).',
    example: 'France',
  })
  destination!: string | null;

  @ApiProperty()
  discount_club!: boolean;

  @ApiProperty()
  is_valid!: boolean;

  @ApiProperty({ type: [String], description: 'Category slugs.', example: ['gastronomy', 'city-break'] })
  travel_ranges!: string[];

  @ApiProperty({
    type: [String],
    description: 'Every departure, local date-times without offset.',
    example: ['2026-12-04T08:30:00'],
  })
  departure_dates!: string[];
}

/** `infoDensity=full` or absent: the record exactly as the catalogue gave it (travel-offer.schema.json), plus the scores. */
export class TravelFullDto extends TravelScoresDto {
  @ApiProperty({ example: 'TRV-000042' })
  id!: string;

  [field: string]: unknown;
}

export type TravelRecordDto = TravelMinDto | TravelCardDto | TravelSearchDto | TravelFullDto;

@ApiExtraModels(TravelMinDto, TravelCardDto, TravelSearchDto, TravelFullDto)
export class TravelListingResponseDto {
  @ApiProperty({
    type: 'integer',
    description:
      'Count of the records that pass the filters (and floors): exact when totalRecordsRelation is "eq"; ' +
      'with "gte" the operator bound (SEARCH_TOTAL_EXACT_LIMIT) that counting stopped at, every counted record reachable by paging.',
  })
  totalRecords!: number;

  @ApiProperty({
    enum: ['eq', 'gte'],
    description: '"eq": totalRecords is exact; "gte": there are at least totalRecords records.',
  })
  totalRecordsRelation!: 'eq' | 'gte';

  @ApiProperty({ type: 'integer', description: 'Number of records on this page.' })
  totalFilteredRecords!: number;

  @ApiProperty({ type: 'integer' })
  page!: number;

  // anyOf, not oneOf: the shapes overlap (every record also matches the open full shape, a card
  // matches the min shape), so "exactly one" refused every record the service answers.
  @ApiProperty({
    description: 'Shaped by infoDensity: min, card, search, or the full record.',
    type: 'array',
    items: {
      anyOf: [
        { $ref: getSchemaPath(TravelMinDto) },
        { $ref: getSchemaPath(TravelCardDto) },
        { $ref: getSchemaPath(TravelSearchDto) },
        { $ref: getSchemaPath(TravelFullDto) },
      ],
    },
  })
  records!: TravelRecordDto[];
}
