import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { LIST_PAGE_RULES, TAG_PAGE_RULES, toPage } from './pagination';
import {
  bulkResult,
  isCalendarDate,
  isIsoDateTime,
  QueryArrayField,
  QueryDateField,
  QueryDateTimeField,
  QueryIntegerField,
  QueryTextField,
  singleValueProblem,
  toInstant,
} from './query-fields';
import { PageQueryDto } from './pagination';

const STATUSES = ['in stock', 'used'] as const;

class ListQuery {
  @QueryArrayField('status[]', { values: STATUSES, maxItems: 3 })
  status?: string[];

  @QueryArrayField('organisation_id[]', { uuid: true })
  organisation_id?: string[];

  @QueryDateField()
  starts_on?: string;

  @QueryDateTimeField()
  expires_from?: string;
}

async function check(query: Record<string, unknown>) {
  const instance = plainToInstance(ListQuery, query);
  const errors = await validate(instance);
  return {
    instance,
    errors: Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})])),
  };
}

describe('query fields', () => {
  it('reads repeated keys and a single plain key as arrays; empty items count as absent', async () => {
    expect((await check({ status: ['in stock', 'used'] })).instance.status).toEqual(['in stock', 'used']);
    expect((await check({ status: 'used' })).instance.status).toEqual(['used']);
    const empty = await check({ status: [''] });
    expect(empty.instance.status).toBeUndefined();
    expect(empty.errors).toEqual({});
  });

  it('refuses unknown items, non-UUIDs, nested values and too many items with one message each', async () => {
    expect((await check({ status: ['lost'] })).errors).toEqual({
      status: ['The status field must only hold: in stock, used.'],
    });
    expect((await check({ organisation_id: ['nope'] })).errors).toEqual({
      organisation_id: ['The organisation id field must only hold UUIDs.'],
    });
    expect((await check({ status: [{ a: 1 }] })).errors.status).toEqual([
      'The status field must be a list of values.',
    ]);
    expect((await check({ status: ['used', 'used', 'used', 'used'] })).errors.status).toEqual([
      'The status field must not have more than 3 items.',
    ]);
  });

  it('takes real calendar dates and zoned ISO date-times only', async () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-2-1')).toBe(false);
    // Years below 100 are themselves (no Date.UTC shortcut); PostgreSQL has no year 0.
    expect(isCalendarDate('0001-01-01')).toBe(true);
    expect(isCalendarDate('0004-02-29')).toBe(true);
    expect(isCalendarDate('0000-01-01')).toBe(false);
    expect(isCalendarDate('9999-12-31')).toBe(true);
    expect(isIsoDateTime('2026-11-24T10:00:00Z')).toBe(true);
    expect(isIsoDateTime('2026-11-24T10:00:00.250+01:00')).toBe(true);
    expect(isIsoDateTime('2026-11-24T10:00:00')).toBe(false);
    expect(isIsoDateTime('2026-11-31T10:00:00Z')).toBe(false);
    expect((await check({ starts_on: '2026-13-01', expires_from: 'tomorrow' })).errors).toEqual({
      starts_on: ['The starts on field must be a date written YYYY-MM-DD.'],
      expires_from: [
        'The expires from field must be an ISO 8601 date-time with a zone, e.g. 2026-11-24T10:00:00Z.',
      ],
    });
    expect(toInstant('2026-11-24T10:00:00+01:00')?.toISOString()).toBe('2026-11-24T09:00:00.000Z');
    expect(toInstant(undefined)).toBeUndefined();
  });

  it('shapes the bulk result and applies the per-resource page caps', () => {
    expect(bulkResult([1], [{ id: 'x', reason: 'not_found' }])).toEqual({
      updated: [1],
      skipped: [{ id: 'x', reason: 'not_found' }],
    });
    expect(toPage({ per_page: 5000 }, LIST_PAGE_RULES).perPage).toBe(100);
    expect(toPage({ per_page: 5000 }, TAG_PAGE_RULES).perPage).toBe(1000);
    expect(toPage({}, LIST_PAGE_RULES).perPage).toBe(25);
  });
});

class ScalarQuery extends PageQueryDto {
  @QueryIntegerField({ min: 1, max: 2147483647 })
  batch_number?: number;

  @QueryTextField({ max: 5 })
  search?: string;
}

async function checkScalars(query: Record<string, unknown>) {
  const instance = plainToInstance(ScalarQuery, query);
  const errors = await validate(instance);
  return {
    instance,
    errors: Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})])),
  };
}

describe('single-valued query fields (D-74)', () => {
  it('read digits as integers and blank as absent', async () => {
    const { instance, errors } = await checkScalars({
      page: ' 2 ',
      per_page: '',
      batch_number: '7',
      search: ' ',
    });
    expect(errors).toEqual({});
    expect(instance).toMatchObject({ page: 2, per_page: undefined, batch_number: 7, search: undefined });
  });

  it.each([
    [{ per_page: 'abc' }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: '1.5' }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: '0' }, 'per_page', 'The per page field must be at least 1.'],
    [{ page: '1000001' }, 'page', 'The page field must not be greater than 1000000.'],
    [{ page: ['1', '2'] }, 'page', 'The page field must be given once; it was repeated.'],
    [{ page: ['1'] }, 'page', 'The page field must be a single value, not a list.'],
    [
      { batch_number: { a: '1' } },
      'batch_number',
      'The batch number field must be a single value, not a nested one.',
    ],
    [
      { batch_number: '99999999999' },
      'batch_number',
      'The batch number field must not be greater than 2147483647.',
    ],
    [{ search: ['a', 'b'] }, 'search', 'The search field must be given once; it was repeated.'],
    [{ search: 'abcdef' }, 'search', 'The search field must not be greater than 5 characters.'],
  ])('%j → one message on %s', async (query, field, message) => {
    expect((await checkScalars(query)).errors).toEqual({ [field]: [message] });
  });

  it('singleValueProblem speaks in the subject it is given', () => {
    expect(singleValueProblem('3', 'size')).toBeNull();
    expect(singleValueProblem(['3', '4'], 'size')).toBe('size must be given once; it was repeated.');
  });
});
