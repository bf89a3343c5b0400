import { ApiPropertyOptional } from '@nestjs/swagger';
import { parseQueryBoolean } from '@rt/contracts';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  registerDecorator,
} from 'class-validator';
import { MAX_DATE_RANGES, parseDateRanges } from '../date-ranges';

export const INFO_DENSITIES = ['min', 'card', 'search', 'full'] as const;
export type InfoDensity = (typeof INFO_DENSITIES)[number];
export const ORDER_BYS = ['rating', 'departure', 'duration'] as const;
export type OrderBy = (typeof ORDER_BYS)[number];
export const ORDER_DIRECTIONS = ['asc', 'desc'] as const;
export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];

export const MAX_PAGE = 1_000_000;
export const MAX_CATEGORIES = 100;

/** An empty query value (`?destination=`) counts as absent, as HTML forms send them. */
const absentIfEmpty = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const QueryInt = () =>
  Transform(({ value }: { value: unknown }) => {
    const given = absentIfEmpty(value);
    return typeof given === 'string' && /^\s*-?\d{1,16}\s*$/.test(given) ? Number(given) : given;
  });

const QueryFloat = () =>
  Transform(({ value }: { value: unknown }) => {
    const given = absentIfEmpty(value);
    return typeof given === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(given) ? Number(given) : given;
  });

const QueryString = () => Transform(({ value }: { value: unknown }) => absentIfEmpty(value));

/** docs/decisions.md D-9: true|false|1|0|yes|no|on|off in any case; anything else → 422. */
const QueryBool = () =>
  Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) =>
    parseQueryBoolean(absentIfEmpty(obj[key])),
  );
const boolMessage = '$property must be one of true, false, 1, 0, yes, no, on, off.';

const CommaList = () =>
  Transform(({ value }: { value: unknown }) => {
    const given = absentIfEmpty(value);
    if (typeof given !== 'string') return given;
    const items = [
      ...new Set(
        given
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
      ),
    ];
    return items.length === 0 ? undefined : items;
  });

/** One rule, one message: a number (an integer when asked) within the bounds. */
function InRange(kind: 'integer' | 'number', min: number, max?: number): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'inRange',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' &&
          Number.isFinite(value) &&
          (kind === 'number' || Number.isInteger(value)) &&
          value >= min &&
          (max === undefined || value <= max),
        defaultMessage: (args) => {
          const what = kind === 'integer' ? 'an integer' : 'a number';
          const bounds = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
          return `${args?.property ?? String(propertyName)} must be ${what} ${bounds}.`;
        },
      },
    });
  };
}

function IsDateRanges(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isDateRanges',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseDateRanges(value).ok,
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          if (typeof value !== 'string') return 'dates must be a string.';
          const parsed = parseDateRanges(value);
          return parsed.ok ? '' : parsed.message;
        },
      },
    });
  };
}

/** The query of `GET /travels` (docs/search-api.md "Parameters"; bounds → 422, docs/decisions.md D-48). */
export class TravelsQueryDto {
  @ApiPropertyOptional({
    maxLength: 500,
    description: 'Free text. Non-blank switches to the ranked (search) branch; blank counts as absent.',
  })
  @IsOptional()
  @IsString({ message: 'search must be a string.' })
  @MaxLength(500, { message: 'search must be shorter than or equal to 500 characters.' })
  search?: string;

  @ApiPropertyOptional({ description: 'ISO 3166-1 alpha-2 country code (case-insensitive).', example: 'FR' })
  @QueryString()
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'destination must be an ISO 3166-1 alpha-2 country code such as FR.' })
  destination?: string;

  @ApiPropertyOptional({
    type: String,
    description: `Category slugs separated by commas, combined with OR (at most ${MAX_CATEGORIES}).`,
    example: 'beach,wellness',
  })
  @CommaList()
  @IsOptional()
  @IsString({ each: true, message: 'category must be category slugs separated by commas.' })
  @ArrayMaxSize(MAX_CATEGORIES)
  @MaxLength(200, { each: true })
  category?: string[];

  @ApiPropertyOptional({
    description: `Inclusive ranges of local dates written YYYY-MM-DD_YYYY-MM-DD, separated by commas, combined with OR (at most ${MAX_DATE_RANGES}); matches when any departure falls in any range.`,
    example: '2027-03-01_2027-03-31,2027-07-01_2027-08-15',
  })
  @QueryString()
  @IsOptional()
  @IsDateRanges()
  dates?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true keeps only valid offers; false or absent keeps all.',
  })
  @QueryBool()
  @IsOptional()
  @IsBoolean({ message: boolMessage })
  hide_invalid?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Three states: true, false, absent.' })
  @QueryBool()
  @IsOptional()
  @IsBoolean({ message: boolMessage })
  discountclub?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Three states: true, false, absent.' })
  @QueryBool()
  @IsOptional()
  @IsBoolean({ message: boolMessage })
  seaside?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'true adds `_explanation` to each record of a search: why it ranks where it does (its text terms with their ' +
      'kind and contribution, its cosine similarity, both ranks and the fused score). Off by default; a filter-only ' +
      'listing (no search) accepts it and adds nothing.',
  })
  @QueryBool()
  @IsOptional()
  @IsBoolean({ message: boolMessage })
  explain?: boolean;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @QueryInt()
  @IsOptional()
  @InRange('integer', 1, MAX_PAGE)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 8 })
  @QueryInt()
  @IsOptional()
  @InRange('integer', 1, 100)
  size?: number;

  @ApiPropertyOptional({ enum: INFO_DENSITIES, description: 'Absent: the full record.' })
  @QueryString()
  @IsOptional()
  @IsIn(INFO_DENSITIES, { message: `infoDensity must be one of ${INFO_DENSITIES.join(', ')}.` })
  infoDensity?: InfoDensity;

  @ApiPropertyOptional({
    enum: ORDER_BYS,
    description: 'Ignored with a non-blank search. Nulls last; ties by id. Absent: id order.',
  })
  @QueryString()
  @IsOptional()
  @IsIn(ORDER_BYS, { message: `orderBy must be one of ${ORDER_BYS.join(', ')}.` })
  orderBy?: OrderBy;

  @ApiPropertyOptional({ enum: ORDER_DIRECTIONS, default: 'asc' })
  @QueryString()
  @IsOptional()
  @IsIn(ORDER_DIRECTIONS, { message: `orderDirection must be one of ${ORDER_DIRECTIONS.join(', ')}.` })
  orderDirection?: OrderDirection;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 1,
    description: 'RRF weight of the semantic side (search only).',
  })
  @QueryFloat()
  @IsOptional()
  @InRange('number', 0, 1)
  rrfVectorWeight?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 1,
    description: 'Cosine similarity minimum (search only).',
  })
  @QueryFloat()
  @IsOptional()
  @InRange('number', 0, 1)
  semanticFloor?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    description:
      "Minimum of the text side's score (tsvector_score: BM25 times query coverage, unbounded above) for a record " +
      'to count on the text side (search only); 0 keeps every record holding a query word.',
  })
  @QueryFloat()
  @IsOptional()
  @InRange('number', 0)
  tsvectorFloor?: number;
}
