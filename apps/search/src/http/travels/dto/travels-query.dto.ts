import { ApiPropertyOptional } from '@nestjs/swagger';
import { CheckRule, parseQueryBoolean, singleValueProblem } from '@rt/contracts';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { MAX_DATE_RANGES, parseDateRanges } from '../../../catalogue/date-ranges';
import { FACET_FIELDS } from '../../../request/listing-facets';
import type { FacetField } from '../../../request/listing-facets';
import { INFO_DENSITIES, ORDER_BYS, ORDER_DIRECTIONS } from '../../../request/listing-request';
import type { InfoDensity, OrderBy, OrderDirection } from '../../../request/listing-request';

export const MAX_PAGE = 1_000_000;
export const MAX_CATEGORIES = 100;
export const MAX_CATEGORY_LENGTH = 200;
export const MAX_SEARCH_LENGTH = 500;

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

/** A comma list that did not arrive as one text (repeated, bracketed or nested): kept for its message. */
class Unsplit {
  constructor(readonly raw: unknown) {}
}

const CommaList = () =>
  Transform(({ value }: { value: unknown }) => {
    const given = absentIfEmpty(value);
    if (typeof given === 'object' && given !== null) return new Unsplit(given);
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

/**
 * The one rule of a parameter (docs/decisions.md D-74): a value given once, then `check`, so each
 * parameter reports one message, its first problem, naming it as clients send it ("size must be an
 * integer from 1 to 100.", "size must be given once; it was repeated.").
 */
function Param(name: string, check: (value: unknown, field: string) => string | null): PropertyDecorator {
  return CheckRule(name, (value, field) => singleValueProblem(value, field) ?? check(value, field));
}

/** A number (an integer when asked) within the bounds. */
function InRange(kind: 'integer' | 'number', min: number, max?: number): PropertyDecorator {
  return Param('inRange', (value, field) => {
    const fine =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (kind === 'number' || Number.isInteger(value)) &&
      value >= min &&
      (max === undefined || value <= max);
    if (fine) return null;
    const what = kind === 'integer' ? 'an integer' : 'a number';
    const bounds = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    return `${field} must be ${what} ${bounds}.`;
  });
}

/** One of a fixed set of values. */
function OneOf(values: readonly string[]): PropertyDecorator {
  return Param('oneOf', (value, field) =>
    values.includes(value as string) ? null : `${field} must be one of ${values.join(', ')}.`,
  );
}

/** A boolean in one of the eight spellings of docs/decisions.md D-9 (QueryBool has parsed it). */
function IsQueryBoolean(): PropertyDecorator {
  return Param('queryBoolean', (value, field) =>
    typeof value === 'boolean' ? null : `${field} must be one of true, false, 1, 0, yes, no, on, off.`,
  );
}

function IsDateRanges(): PropertyDecorator {
  return Param('isDateRanges', (value, field) => {
    if (typeof value !== 'string') return `${field} must be a string.`;
    const parsed = parseDateRanges(value);
    return parsed.ok ? null : parsed.message;
  });
}

/** Category slugs, split on commas by CommaList: at most MAX_CATEGORIES, each of at most MAX_CATEGORY_LENGTH characters. */
function IsCategories(): PropertyDecorator {
  // Not Param: the value is a list once CommaList has split it; what arrived is in Unsplit.
  return CheckRule('isCategories', (value, field) => {
    if (value instanceof Unsplit) {
      return singleValueProblem(value.raw, field) ?? `${field} must be category slugs separated by commas.`;
    }
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      return `${field} must be category slugs separated by commas.`;
    }
    if (value.length > MAX_CATEGORIES) return `${field} accepts at most ${MAX_CATEGORIES} slugs.`;
    return value.every((item: string) => item.length <= MAX_CATEGORY_LENGTH)
      ? null
      : `${field} accepts slugs of at most ${MAX_CATEGORY_LENGTH} characters.`;
  });
}

/** Facet fields, split on commas by CommaList: each one of FACET_FIELDS (D-81). */
function IsFacetFields(): PropertyDecorator {
  return CheckRule('isFacetFields', (value, field) => {
    if (value instanceof Unsplit) {
      return singleValueProblem(value.raw, field) ?? `${field} must be field names separated by commas.`;
    }
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      return `${field} must be field names separated by commas.`;
    }
    const unknown = value.filter((item: string) => !(FACET_FIELDS as readonly string[]).includes(item));
    if (!unknown.length) return null;
    const shown = unknown
      .slice(0, 3)
      .map((item: string) => (item.length > 40 ? `${item.slice(0, 40)}…` : item));
    return `${field} accepts ${FACET_FIELDS.join(', ')}; not ${shown.join(', ')}.`;
  });
}

/** The query of `GET /travels` (docs/search-api.md "Parameters"; bounds → 422, docs/decisions.md D-48). */
export class TravelsQueryDto {
  @ApiPropertyOptional({
    maxLength: MAX_SEARCH_LENGTH,
    description: 'Free text. Non-blank switches to the ranked (search) branch; blank counts as absent.',
  })
  @IsOptional()
  @Param('search', (value, field) => {
    if (typeof value !== 'string') return `${field} must be a string.`;
    return value.length > MAX_SEARCH_LENGTH
      ? `${field} must be shorter than or equal to ${MAX_SEARCH_LENGTH} characters.`
      : null;
  })
  search?: string;

  @ApiPropertyOptional({ description: 'ISO 3166-1 alpha-2 country code (case-insensitive).', example: 'FR' })
  @QueryString()
  @IsOptional()
  @Param('destination', (value, field) =>
    typeof value === 'string' && /^[A-Za-z]{2}$/.test(value)
      ? null
      : `${field} must be an ISO 3166-1 alpha-2 country code such as FR.`,
  )
  destination?: string;

  @ApiPropertyOptional({
    type: String,
    description: `Category slugs separated by commas, combined with OR (at most ${MAX_CATEGORIES}).`,
    example: 'beach,wellness',
  })
  @CommaList()
  @IsOptional()
  @IsCategories()
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
  @IsQueryBoolean()
  hide_invalid?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Three states: true, false, absent.' })
  @QueryBool()
  @IsOptional()
  @IsQueryBoolean()
  discountclub?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Three states: true, false, absent.' })
  @QueryBool()
  @IsOptional()
  @IsQueryBoolean()
  seaside?: boolean;

  @ApiPropertyOptional({
    type: String,
    description:
      `Fields to count beside the page, separated by commas: ${FACET_FIELDS.join(', ')}. The answer then holds ` +
      '`facets`: per field, the number of offers per value over exactly the set totalRecords counts (every filter ' +
      "applied, the field's own included), the 50 largest; and the category and destination filter values no " +
      'offer holds. Absent: no `facets` in the answer.',
    example: 'category,destination',
  })
  @CommaList()
  @IsOptional()
  @IsFacetFields()
  facets?: FacetField[];

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'true adds `_explanation` to each record of a search: why it ranks where it does (its text terms with their ' +
      'kind and contribution, its cosine similarity, both ranks and the fused score). Off by default; a filter-only ' +
      'listing (no search) accepts it and adds nothing.',
  })
  @QueryBool()
  @IsOptional()
  @IsQueryBoolean()
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
  @OneOf(INFO_DENSITIES)
  infoDensity?: InfoDensity;

  @ApiPropertyOptional({
    enum: ORDER_BYS,
    description: 'Ignored with a non-blank search. Nulls last; ties by id. Absent: id order.',
  })
  @QueryString()
  @IsOptional()
  @OneOf(ORDER_BYS)
  orderBy?: OrderBy;

  @ApiPropertyOptional({ enum: ORDER_DIRECTIONS, default: 'asc' })
  @QueryString()
  @IsOptional()
  @OneOf(ORDER_DIRECTIONS)
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
