import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { FACET_VALUE_LIMIT } from '../../../request/listing-facets';

/** How a query term was found (apps/search/README.md, "The text side", "Query expansion"). */
export const TERM_KINDS = [
  'exact',
  'stem',
  'typo',
  'compound',
  'phrase',
  'stop',
  'glossary',
  'synonym',
  'place',
  'within',
  'narrower',
  'related',
  'location',
] as const;
export type TermKind = (typeof TERM_KINDS)[number];

/** Explain mode: one query term a record holds. */
export class TermExplanationDto {
  @ApiProperty({
    description:
      'The query word the term counts for, folded (lower case, accents off) as the text side splits the search; ' +
      'for a pair of adjacent words, both words.',
    example: 'wanderung',
  })
  word!: string;

  @ApiProperty({ description: 'The index term the record holds.', example: 'randonnee' })
  term!: string;

  @ApiProperty({
    enum: TERM_KINDS,
    description:
      'exact: the folded word itself; stem: one of its French, German or English stems; typo: a spelling correction; ' +
      'compound: a part of a compound word; phrase: a pair of adjacent query words; stop: a stop word; ' +
      'glossary: a word of the same travel-glossary concept in another language; synonym: an operator synonym; ' +
      'place: another name of a place the search names (the gazetteer); within: the name of a place inside it; ' +
      'narrower: a word of a concept the query word includes (winter sports: skiing); ' +
      'related: a word of a near concept or of the theme of an item, covering a minor concept (beach holiday: beach; castle: culture); ' +
      'location: the record covers a place the search names by where it is (inside it, near its point, or in the region containing it; term: the place id; see text.places).',
    example: 'glossary',
  })
  kind!: TermKind;

  @ApiProperty({
    description:
      "The kind's weight (exact and stem 1, compound 0.8, typo 0.6 or 0.4, phrase 0.5, stop 0.1; glossary, synonym, place, within, narrower and related configured).",
    example: 0.9,
  })
  weight!: number;

  @ApiProperty({
    description:
      'Whether the term counts: the best form of its word in this record (the highest part), when the query selects the record. Other terms contribute 0.',
  })
  counted!: boolean;

  @ApiProperty({
    description:
      "The term's share of tsvector_score: its BM25 part times the record's coverage (and its language_factor) when counted, else 0. The terms' contributions add up to tsvector_score.",
    example: 4.2,
  })
  contribution!: number;
}

/** Explain mode: the semantic side of a record's score. */
export class SemanticExplanationDto {
  @ApiProperty({ description: 'The cosine similarity (semantic_score).', example: 0.71 })
  similarity!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'The rank on the semantic side (from 1); null when the record is not on it (below semanticFloor, not a candidate, or a full-text answer).',
  })
  rank!: number | null;

  @ApiProperty({ description: 'rrf.vector_weight / (rrf.k + rank), or 0 without a rank.', example: 0.0082 })
  contribution!: number;
}

/** Explain mode: the text side of a record's score. */
/** Explain mode: one concept of the search (a query word) and whether the record covers it. */
export class ConceptExplanationDto {
  @ApiProperty({
    description: 'The query word, folded as the text side splits the search.',
    example: 'wallis',
  })
  word!: string;

  @ApiProperty({
    description:
      'What the concept weighs: 16 a place the gazetteer knows, 4 a word that says what the traveller looks for, ' +
      '1 a general or very common word (apps/search/README.md, "Concept coverage").',
    example: 16,
  })
  weight!: number;

  @ApiProperty({
    description:
      'Whether the record covers the concept by some form of the word (the word, a stem, a typo, a compound part, a translation, another name of the place …). ' +
      'A place is covered only where the record is: its name or destination.',
  })
  covered!: boolean;

  @ApiProperty({
    description:
      "The word's idf in its BM25 parts: that of the rarest of its own forms; its translations, synonyms and other names are scored with an idf never above it, so that a translation never outscores the word itself.",
    example: 3.1,
  })
  idf!: number;

  @ApiProperty({
    enum: ['destination_or_name', 'mention_only'],
    nullable: true,
    description:
      'For a place the search names: destination_or_name when the record holds it in its name or destination (it covers the place), ' +
      'mention_only when only its description or another category names it (it scores as a word but does not cover the place); null otherwise.',
    example: 'destination_or_name',
  })
  place!: 'destination_or_name' | 'mention_only' | null;
}

/** Explain mode: a place the search names, as resolved, and how the record covers it (D-88b). */
export class PlaceExplanationDto {
  @ApiProperty({ description: 'The query word the place counts for, folded.', example: 'tasch' })
  word!: string;

  @ApiProperty({ description: "The gazetteer's id of the place the word resolved to.", example: 'tasch' })
  place!: string;

  @ApiProperty({
    description: 'What the place is (city, canton, region, lake, range, sea …).',
    example: 'city',
  })
  kind!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The nearest place containing it but its country (its parent region); null when none.',
    example: 'mattertal',
  })
  parent!: string | null;

  @ApiProperty({
    description:
      'Whether an offer of the catalogue lies inside the place. When no place the search names holds one, the search answers the offers near it only, by distance, or nothing.',
    example: true,
  })
  in_catalogue!: boolean;

  @ApiProperty({
    enum: ['inside', 'near', 'region'],
    nullable: true,
    description:
      'How the record covers the place by where it is: inside it (or inside one of its member regions and towns), near its point (within a radius set by its kind), ' +
      'or in a region containing it (a reduced share); null when it does not by where it is (it may still name it: concepts[].place).',
    example: 'near',
  })
  covered_by!: 'inside' | 'near' | 'region' | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "Kilometres from the place's point to the record's nearest point (one decimal); null when either is not known or it is beyond the radius.",
    example: 4.2,
  })
  distance_km!: number | null;

  @ApiProperty({
    description:
      "The share of the place's concept weight the record covers by where it is (1 inside; 1 to 0.85 near, by distance; 0.8 in its region; 0 none).",
    example: 0.97,
  })
  share!: number;
}

export class TextExplanationDto {
  @ApiProperty({
    description: "The text score (tsvector_score): the sum of the terms' contributions.",
    example: 12.5,
  })
  score!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'The rank on the text side (from 1); null when the record is not ranked there (it does not match, is below ' +
      'tsvectorFloor, rrfVectorWeight is 1, or it lies past the best records the text side ranked exactly).',
  })
  rank!: number | null;

  @ApiProperty({
    description: '(1 − rrf.vector_weight) / (rrf.k + rank), or 0 without a rank.',
    example: 0.0081,
  })
  contribution!: number;

  @ApiProperty({
    description:
      "The share of the search's concept weight the record covers, at most 1: the multiplier of the summed parts; 0 when the query does not select the record.",
    example: 1,
  })
  coverage!: number;

  @ApiProperty({
    type: [ConceptExplanationDto],
    description:
      'The concepts of the search, in query order, each with its weight and whether the record covers it: the text side ranks a record covering more concept weight first.',
  })
  concepts!: ConceptExplanationDto[];

  @ApiProperty({
    enum: ['fr', 'de', 'en', 'it'],
    nullable: true,
    description:
      "The search's language as guessed from its words (the glossary's words and little words of French, German, English and Italian); null when none tells. It decides whether a name that is also a common word is a place.",
    example: 'de',
  })
  language!: 'fr' | 'de' | 'en' | 'it' | null;

  @ApiProperty({
    type: [String],
    description:
      "The search's words (folded, in query order) that matched no form after correction: no word of the index, stem, typo correction, compound part, translation or place name. " +
      'The ranking answers for the other words alone; a client can say what was not understood. Stop words are not listed.',
    example: ['xqzvw'],
  })
  unmatched_words!: string[];

  @ApiProperty({
    description:
      "What the record's text score was multiplied by for being written in the search's language (1 + SEARCH_LANGUAGE_PREFERENCE); " +
      '1 when it is written in another, no language was guessed, or the preference is off. It reorders only records covering the same concept weight.',
    example: 2,
  })
  language_factor!: number;

  @ApiProperty({
    type: [TermExplanationDto],
    description: 'Every query term the record holds, by query word, the counted form first.',
  })
  terms!: TermExplanationDto[];

  @ApiProperty({
    type: [PlaceExplanationDto],
    description:
      'The places the search names as resolved against where the offers are (their point, parent and whether the catalogue holds an offer inside them), ' +
      'each with how this record covers it and at what distance; empty when the search names none or the index does not know where its offers are.',
  })
  places!: PlaceExplanationDto[];
}

/** Explain mode: the fusion's parameters. */
export class FusionExplanationDto {
  @ApiProperty({
    description:
      "w of RRF, the semantic side's weight (0 for a full-text answer, which ranks by text alone).",
    example: 0.5,
  })
  vector_weight!: number;

  @ApiProperty({ type: 'integer', description: 'k of RRF.', example: 60 })
  k!: number;
}

/** Explain mode (`explain=true` with a search): why a record ranks where it does. */
export class ExplanationDto {
  @ApiProperty({
    description: 'The fused score (_relevance_score) = semantic.contribution + text.contribution.',
    example: 0.0163,
  })
  score!: number;

  @ApiProperty({ type: FusionExplanationDto })
  rrf!: FusionExplanationDto;

  @ApiProperty({ type: SemanticExplanationDto })
  semantic!: SemanticExplanationDto;

  @ApiProperty({ type: TextExplanationDto })
  text!: TextExplanationDto;
}

/** The three scores every record carries (docs/search-api.md "Two branches", docs/decisions.md D-56). */
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

  @ApiPropertyOptional({
    type: ExplanationDto,
    description: 'Only with explain=true and a search: why the record ranks where it does.',
  })
  _explanation?: ExplanationDto;
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

/** One value of a facet field and the number of offers holding it. */
export class FacetValueDto {
  @ApiProperty({
    description:
      'The value as the filter of the same name takes it: a category slug, an ISO-2 code (upper case), or "true"/"false".',
    example: 'beach',
  })
  value!: string;

  @ApiProperty({
    type: 'integer',
    description: 'The number of offers of the counted set holding it.',
    example: 12,
  })
  count!: number;
}

/** The counts of one facet field. */
export class FacetFieldDto {
  @ApiProperty({
    type: [FacetValueDto],
    description: `The values held by at least one offer, the ${FACET_VALUE_LIMIT} largest counts first (ties by value ascending).`,
  })
  values!: FacetValueDto[];

  @ApiProperty({
    type: 'integer',
    description: `How many other values, each held by at least one offer, were left out past the first ${FACET_VALUE_LIMIT}.`,
    example: 0,
  })
  valuesLeftOut!: number;
}

/** The counts per asked field. */
export class FacetCountsDto {
  @ApiPropertyOptional({
    type: FacetFieldDto,
    description: 'By category slug (an offer counts once per slug it lists).',
  })
  category?: FacetFieldDto;

  @ApiPropertyOptional({
    type: FacetFieldDto,
    description: 'By ISO-2 country code; offers without a destination are in no value.',
  })
  destination?: FacetFieldDto;

  @ApiPropertyOptional({ type: FacetFieldDto, description: 'By "true" / "false".' })
  discountclub?: FacetFieldDto;

  @ApiPropertyOptional({ type: FacetFieldDto, description: 'By "true" / "false".' })
  seaside?: FacetFieldDto;
}

/** Filter values that no offer of the catalogue holds. */
export class UnknownFilterValuesDto {
  @ApiProperty({
    type: [String],
    description:
      'The category filter slugs no offer lists (a misspelling such as skiing for ski), in the order sent.',
    example: ['skiing'],
  })
  category!: string[];

  @ApiProperty({
    type: [String],
    description: 'The destination filter code (upper case) when no offer is in that country; else empty.',
    example: [],
  })
  destination!: string[];
}

/** `facets` (only with the facets parameter): counts over exactly the set totalRecords counts (D-81). */
export class FacetsDto {
  @ApiProperty({
    enum: ['eq', 'gte'],
    description:
      '"eq": counted over the whole set totalRecords counts (every filter applied, each field\'s own included). ' +
      '"gte": a filter-only listing whose counting stopped at the operator bound (totalRecordsRelation "gte"): ' +
      'the counts are those of the first SEARCH_TOTAL_EXACT_LIMIT offers of the set in id order. A search counts its whole set.',
  })
  relation!: 'eq' | 'gte';

  @ApiProperty({ type: FacetCountsDto, description: 'One entry per asked field.' })
  counts!: FacetCountsDto;

  @ApiProperty({ type: UnknownFilterValuesDto })
  unknownFilterValues!: UnknownFilterValuesDto;
}

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

  @ApiPropertyOptional({
    type: FacetsDto,
    description: 'Only with the facets parameter: the number of offers per value of each asked field.',
  })
  facets?: FacetsDto;
}
