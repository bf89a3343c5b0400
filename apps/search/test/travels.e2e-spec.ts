import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { SearchLog, SearchLogLine } from '../src/http/travels/search-log';
import { makeOffer } from './catalogue-fixtures';
import { createCatalogueTestApp, TestApp } from './test-app';

type Row = [
  id: string,
  code: string | null,
  categories: string[],
  rating: number | null,
  duration: number | null,
  next: string | null,
  departures: string[],
  discountClub: boolean,
  seaside: boolean,
  isValid: boolean,
];

/** A small catalogue where every filter and sort has something to separate, nulls included. */
const ROWS: Row[] = [
  [
    'A01',
    'FR',
    ['culture'],
    4.5,
    7,
    '2027-03-01T08:00',
    ['2027-01-10T08:00', '2027-03-01T08:00'],
    false,
    false,
    true,
  ],
  ['A02', 'CH', ['hiking', 'wellness'], null, 3, '2027-02-01T07:30', ['2027-02-01T07:30'], true, false, true],
  ['A03', 'DE', ['beach'], 3.2, null, null, [], false, true, false],
  [
    'A04',
    'FR',
    ['beach', 'gastronomy'],
    4.5,
    10,
    '2027-01-15T09:00',
    ['2027-01-15T09:00', '2027-05-31T23:30'],
    true,
    true,
    true,
  ],
  [
    'A05',
    null,
    [],
    null,
    5,
    '2027-06-30T10:00:00',
    ['2026-12-31T18:00', '2027-06-30T10:00:00'],
    false,
    false,
    false,
  ],
  ['A06', 'IT', ['culture'], 2.9, 14, '2027-01-15T09:00', ['2027-01-15T09:00'], false, false, true],
  ['A07', 'CH', ['ski'], 4.9, null, '2026-12-20T08:00', ['2026-12-20T08:00'], true, false, true],
  ['A08', 'FR', ['wellness'], 4.5, 7, null, ['2025-06-01T08:00'], false, true, true],
  ['A09', 'ES', ['beach'], 3.9, 5, '2027-04-01T08:00', ['2027-04-01T08:00'], false, true, false],
  [
    'A10',
    'DE',
    ['culture', 'family'],
    null,
    null,
    '2027-02-01T07:30',
    ['2027-02-01T07:30'],
    true,
    false,
    true,
  ],
  ['A11', 'FR', ['hiking'], 4.1, 21, '2027-07-14T06:00', ['2027-07-14T06:00'], false, false, true],
  ['A12', 'PT', ['beach'], 4.5, 7, '2027-03-01T08:00', ['2027-03-01T08:00'], false, true, true],
];

const COUNTRY: Record<string, string> = {
  FR: 'France',
  CH: 'Schweiz',
  DE: 'Deutschland',
  IT: 'Italia',
  ES: 'España',
  PT: 'Portugal',
};

const RECORDS: CatalogueRecord[] = ROWS.map(
  ([id, code, categories, rating, duration, next, departures, discountClub, seaside, isValid]) =>
    makeOffer(id, {
      name: `Voyage ${id}`,
      slug: `voyage-${id.toLowerCase()}`,
      description: id === 'A06' ? null : `Séjour ${id} en été`,
      rating,
      duration,
      nextDeparture: next,
      departureDates: departures,
      destination: code ? { code, name: COUNTRY[code] } : null,
      categories: categories.map((slug) => ({ slug, name: slug.toUpperCase() })),
      discountClub,
      seaside,
      isValid,
      photos: [{ url: `https://img.invalid/${id}.jpg` }],
    }),
);
// A07 is described in German, for the full-text check.
RECORDS[6].name = 'Skiferien in Zürich';

const ALL = ROWS.map((row) => row[0]);
const byId = new Map(ROWS.map((row) => [row[0], row]));
const SCORES = { _relevance_score: 1, semantic_score: 0, tsvector_score: 0 };
const full = (value: string | null) => (value === null ? null : value.length === 16 ? `${value}:00` : value);

describe('GET /travels without search (filter only)', () => {
  let t: TestApp;
  const searches: SearchLogLine[] = [];

  beforeAll(async () => {
    t = await createCatalogueTestApp(
      [...RECORDS].reverse(),
      {},
      {
        overrides: [
          { provide: SearchLog, useValue: { write: (line: SearchLogLine) => searches.push(line) } },
        ],
      },
    );
  });
  afterAll(() => t?.close());

  const list = (query: Record<string, string | number | boolean>) => t.http.get('/travels').query(query);
  const ids = async (query: Record<string, string | number | boolean>) => {
    const res = await list({ size: 100, infoDensity: 'min', ...query }).expect(200);
    if (query.page === undefined) expect(res.body.totalRecords).toBe(res.body.records.length);
    return (res.body.records as { id: string }[]).map((record) => record.id);
  };
  const where = (predicate: (row: Row) => boolean) => ROWS.filter(predicate).map((row) => row[0]);

  describe('defaults and paging', () => {
    it('answers the full records in id order, 8 a page, with exact totals and the filter-only scores', async () => {
      const res = await t.http.get('/travels').expect(200);
      expect(res.headers['x-search-fallback']).toBeUndefined();
      expect(res.body).toMatchObject({ totalRecords: 12, totalFilteredRecords: 8, page: 1 });
      expect(res.body.records.map((r: { id: string }) => r.id)).toEqual(ALL.slice(0, 8));
      expect(res.body.records[0]).toEqual({ ...RECORDS[0], ...SCORES });
    });

    it('pages with page and size; a page past the end is empty with the total', async () => {
      const second = await list({ page: 2 }).expect(200);
      expect(second.body).toMatchObject({ totalRecords: 12, totalFilteredRecords: 4, page: 2 });
      expect(second.body.records.map((r: { id: string }) => r.id)).toEqual(ALL.slice(8));
      const past = await list({ page: 4, size: 5 }).expect(200);
      expect(past.body).toEqual({
        totalRecords: 12,
        totalRecordsRelation: 'eq',
        totalFilteredRecords: 0,
        page: 4,
        records: [],
      });
      const one = await list({ size: 1, page: 12, infoDensity: 'min' }).expect(200);
      expect(one.body.records).toEqual([{ id: 'A12', name: 'Voyage A12', slug: 'voyage-a12', ...SCORES }]);
    });

    it('accepts the bounds: size 1 and 100, page 1 and 1,000,000', async () => {
      expect((await list({ size: 1 }).expect(200)).body.records).toHaveLength(1);
      expect((await list({ size: 100 }).expect(200)).body.records).toHaveLength(12);
      expect((await list({ page: 1_000_000, size: 100 }).expect(200)).body).toMatchObject({
        totalRecords: 12,
        records: [],
      });
    });

    it('answers 200 with an empty list when nothing matches', async () => {
      const res = await list({ destination: 'JP' }).expect(200);
      expect(res.body).toEqual({
        totalRecords: 0,
        totalRecordsRelation: 'eq',
        totalFilteredRecords: 0,
        page: 1,
        records: [],
      });
    });

    it('treats empty parameters as absent', async () => {
      expect(
        await ids({ destination: '', category: '', dates: '', discountclub: '', orderBy: '', page: '' }),
      ).toEqual(ALL);
    });
  });

  describe('infoDensity', () => {
    it('min has exactly id, name, slug and the scores', async () => {
      const res = await list({ infoDensity: 'min', size: 1 }).expect(200);
      expect(res.body.records[0]).toEqual({ id: 'A01', name: 'Voyage A01', slug: 'voyage-a01', ...SCORES });
    });

    it('card adds description, rating and nextDeparture (nulls kept)', async () => {
      const res = await list({ infoDensity: 'card', size: 100 }).expect(200);
      expect(res.body.records[0]).toEqual({
        id: 'A01',
        name: 'Voyage A01',
        description: 'Séjour A01 en été',
        rating: 4.5,
        slug: 'voyage-a01',
        nextDeparture: '2027-03-01T08:00:00',
        ...SCORES,
      });
      const a03 = res.body.records.find((r: { id: string }) => r.id === 'A03');
      expect(a03).toMatchObject({ rating: 3.2, nextDeparture: null });
      const a06 = res.body.records.find((r: { id: string }) => r.id === 'A06');
      expect(a06.description).toBeNull();
      expect(Object.keys(a06).sort()).toEqual(
        ['id', 'name', 'description', 'rating', 'slug', 'nextDeparture', ...Object.keys(SCORES)].sort(),
      );
    });

    it('search has the country name, flags, category slugs and departures', async () => {
      const res = await list({ infoDensity: 'search', size: 100 }).expect(200);
      expect(res.body.records[3]).toEqual({
        id: 'A04',
        name: 'Voyage A04',
        destination: 'France',
        discount_club: true,
        is_valid: true,
        travel_ranges: ['beach', 'gastronomy'],
        departure_dates: ['2027-01-15T09:00:00', '2027-05-31T23:30:00'],
        ...SCORES,
      });
      expect(res.body.records[4]).toMatchObject({
        id: 'A05',
        destination: null,
        travel_ranges: [],
        is_valid: false,
      });
    });

    it('full (and absent) is the stored record as the catalogue gave it, plus the scores', async () => {
      const res = await list({ infoDensity: 'full', size: 100 }).expect(200);
      const byRecordId = new Map(RECORDS.map((record) => [record.id, record]));
      for (const record of res.body.records as CatalogueRecord[]) {
        expect(record).toEqual({ ...byRecordId.get(record.id), ...SCORES });
      }
    });
  });

  describe('filters', () => {
    it('destination: the ISO-2 code, any case', async () => {
      expect(await ids({ destination: 'FR' })).toEqual(where((r) => r[1] === 'FR'));
      expect(await ids({ destination: 'ch' })).toEqual(where((r) => r[1] === 'CH'));
    });

    it('category: any listed slug (OR), spaces ignored', async () => {
      expect(await ids({ category: 'beach' })).toEqual(where((r) => r[2].includes('beach')));
      expect(await ids({ category: 'wellness, ski,nope' })).toEqual(
        where((r) => r[2].some((c) => ['wellness', 'ski'].includes(c))),
      );
    });

    it('dates: any departure date in any range, bounds included, local dates', async () => {
      const inRanges = (ranges: [string, string][]) => (row: Row) =>
        row[6].some((departure) =>
          ranges.some(([from, to]) => departure.slice(0, 10) >= from && departure.slice(0, 10) <= to),
        );
      expect(await ids({ dates: '2027-01-15_2027-01-15' })).toEqual(
        where(inRanges([['2027-01-15', '2027-01-15']])),
      );
      expect(await ids({ dates: '2027-05-31_2027-06-01' })).toEqual(['A04']);
      expect(await ids({ dates: '2026-12-31_2026-12-31,2027-07-01_2027-07-31' })).toEqual(['A05', 'A11']);
      expect(await ids({ dates: '2027-02-01_2027-03-01' })).toEqual(
        where(inRanges([['2027-02-01', '2027-03-01']])),
      );
      expect(await ids({ dates: '2030-01-01_2030-12-31' })).toEqual([]);
    });

    it('hide_invalid: true keeps valid offers, false keeps all', async () => {
      expect(await ids({ hide_invalid: 'true' })).toEqual(where((r) => r[9]));
      expect(await ids({ hide_invalid: 'false' })).toEqual(ALL);
    });

    it('discountclub and seaside: three states', async () => {
      expect(await ids({ discountclub: 'true' })).toEqual(where((r) => r[7]));
      expect(await ids({ discountclub: 'false' })).toEqual(where((r) => !r[7]));
      expect(await ids({ seaside: 'true' })).toEqual(where((r) => r[8]));
      expect(await ids({ seaside: 'false' })).toEqual(where((r) => !r[8]));
    });

    it.each([
      ['1', true],
      ['yes', true],
      ['ON', true],
      ['True', true],
      ['0', false],
      ['no', false],
      ['Off', false],
      ['FALSE', false],
    ])('booleans accept %s', async (given, meaning) => {
      expect(await ids({ seaside: given })).toEqual(where((r) => r[8] === meaning));
    });

    it('combines every filter with AND', async () => {
      expect(await ids({ destination: 'FR', seaside: 'true' })).toEqual(['A04', 'A08']);
      expect(await ids({ category: 'beach,culture', hide_invalid: 'yes', discountclub: 'no' })).toEqual([
        'A01',
        'A06',
        'A12',
      ]);
      expect(
        await ids({
          destination: 'FR',
          category: 'beach,hiking,culture',
          dates: '2027-01-01_2027-03-31,2027-07-14_2027-07-14',
          hide_invalid: '1',
          discountclub: '0',
          seaside: 'off',
        }),
      ).toEqual(['A01', 'A11']);
    });
  });

  describe('orderBy', () => {
    const key = (orderBy: string) => (row: Row) =>
      orderBy === 'rating' ? row[3] : orderBy === 'duration' ? row[4] : row[5] === null ? null : full(row[5]);
    const expected = (orderBy: string, direction: 'asc' | 'desc', rows = ROWS) =>
      [...rows]
        .sort((a, b) => {
          const x = key(orderBy)(a);
          const y = key(orderBy)(b);
          if (x === null && y === null) return a[0] < b[0] ? -1 : 1;
          if (x === null) return 1;
          if (y === null) return -1;
          if (x !== y) return (x < y ? -1 : 1) * (direction === 'asc' ? 1 : -1);
          return a[0] < b[0] ? -1 : 1;
        })
        .map((row) => row[0]);

    it.each([
      ['rating', 'asc'],
      ['rating', 'desc'],
      ['departure', 'asc'],
      ['departure', 'desc'],
      ['duration', 'asc'],
      ['duration', 'desc'],
    ] as const)('%s %s: nulls last, ties by id', async (orderBy, direction) => {
      expect(await ids({ orderBy, orderDirection: direction })).toEqual(expected(orderBy, direction));
    });

    it('defaults to ascending', async () => {
      expect(await ids({ orderBy: 'rating' })).toEqual(expected('rating', 'asc'));
      expect((await ids({ orderBy: 'rating' })).slice(-3)).toEqual(['A02', 'A05', 'A10']);
    });

    it('pages are stable: consecutive pages make up the whole sorted list', async () => {
      for (const [orderBy, direction] of [
        ['rating', 'desc'],
        ['departure', 'asc'],
        ['duration', 'desc'],
      ] as const) {
        const pages: string[] = [];
        for (let page = 1; page <= 4; page++)
          pages.push(...(await ids({ orderBy, orderDirection: direction, size: 3, page })));
        expect(pages).toEqual(expected(orderBy, direction));
      }
    });

    it('sorts within filters', async () => {
      const rows = ROWS.filter((r) => r[2].includes('beach'));
      expect(await ids({ category: 'beach', orderBy: 'duration', orderDirection: 'desc' })).toEqual(
        expected('duration', 'desc', rows),
      );
    });

    it('orderDirection alone keeps id order', async () => {
      expect(await ids({ orderDirection: 'desc' })).toEqual(ALL);
    });
  });

  describe('422 in the shared envelope', () => {
    it.each([
      [{ size: 0 }, 'size'],
      [{ size: 101 }, 'size'],
      [{ size: 'ten' }, 'size'],
      [{ size: 2.5 }, 'size'],
      [{ page: 0 }, 'page'],
      [{ page: -1 }, 'page'],
      [{ page: 'x' }, 'page'],
      [{ page: 1_000_001 }, 'page'],
      [{ infoDensity: 'tiny' }, 'infoDensity'],
      [{ infoDensity: 'MIN' }, 'infoDensity'],
      [{ orderBy: 'price' }, 'orderBy'],
      [{ orderDirection: 'up' }, 'orderDirection'],
      [{ orderDirection: 'DESC' }, 'orderDirection'],
      [{ discountclub: 'maybe' }, 'discountclub'],
      [{ seaside: '2' }, 'seaside'],
      [{ hide_invalid: 'y' }, 'hide_invalid'],
      [{ destination: 'FRA' }, 'destination'],
      [{ destination: 'F1' }, 'destination'],
      [{ dates: '2027-01-01' }, 'dates'],
      [{ dates: '2027-01-01_2027-01-31,' }, 'dates'],
      [{ dates: '2027-13-01_2027-13-02' }, 'dates'],
      [{ dates: '2027-02-29_2027-03-01' }, 'dates'],
      [{ dates: '2027-03-02_2027-03-01' }, 'dates'],
      [{ dates: '01-01-2027_02-01-2027' }, 'dates'],
      [{ search: 'x'.repeat(501) }, 'search'],
      [{ rrfVectorWeight: 1.5 }, 'rrfVectorWeight'],
      [{ rrfVectorWeight: -0.1 }, 'rrfVectorWeight'],
      [{ rrfVectorWeight: 'half' }, 'rrfVectorWeight'],
      [{ semanticFloor: 2 }, 'semanticFloor'],
      [{ tsvectorFloor: -1 }, 'tsvectorFloor'],
    ] as [Record<string, string | number>, string][])('%j → %s', async (query, field) => {
      const res = await list(query).expect(422);
      expect(Object.keys(res.body).sort()).toEqual(['errors', 'message']);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.errors[field]).toEqual([expect.any(String)]);
      expect(res.body.message).toBe(res.body.errors[field][0]);
      // Every message is a sentence, with its full stop.
      expect(res.body.message).toMatch(/^[a-z][\s\S]*\.$/i);
    });

    it('reports every bad parameter at once', async () => {
      const res = await list({ size: 500, page: 0, orderBy: 'x' }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['orderBy', 'page', 'size']);
      expect(res.body.message).toMatch(/\(and 2 more errors\)$/);
    });

    it('refuses repeated scalar parameters', async () => {
      const res = await t.http.get('/travels?size=1&size=2').expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['size']);
    });

    it('accepts the ranking parameters at their bounds (ignored without a search)', async () => {
      for (const query of [
        { rrfVectorWeight: 0, semanticFloor: 0, tsvectorFloor: 0 },
        { rrfVectorWeight: 1, semanticFloor: 1, tsvectorFloor: 1000 },
        { rrfVectorWeight: '0.25', semanticFloor: '.5', tsvectorFloor: '0.1' },
      ]) {
        expect(await ids(query)).toEqual(ALL);
      }
    });

    it('ignores unknown parameters', async () => {
      expect(await ids({ colour: 'blue' })).toEqual(ALL);
    });
  });

  describe('search parameter', () => {
    it('a blank search is the filter-only branch', async () => {
      const res = await list({
        search: '   ',
        size: 100,
        infoDensity: 'min',
        orderBy: 'rating',
        orderDirection: 'desc',
      }).expect(200);
      expect(res.headers['x-search-fallback']).toBeUndefined();
      expect(res.body.records[0]).toEqual({
        id: 'A07',
        name: 'Skiferien in Zürich',
        slug: 'voyage-a07',
        ...SCORES,
      });
      expect(searches).toHaveLength(0);
    });

    it('a non-blank search is ranked (hybrid: test/hybrid-search.e2e-spec.ts) and logged once', async () => {
      const res = await list({
        search: 'zurich',
        destination: 'ch',
        infoDensity: 'min',
        orderBy: 'duration',
        rrfVectorWeight: 0,
      }).expect(200);
      expect(res.headers['x-search-fallback']).toBeUndefined();
      expect(res.body).toMatchObject({ totalRecords: 1, totalFilteredRecords: 1, page: 1 });
      expect(res.body.records[0]).toEqual({
        id: 'A07',
        name: 'Skiferien in Zürich',
        slug: 'voyage-a07',
        _relevance_score: 1 / 61,
        semantic_score: expect.any(Number),
        tsvector_score: expect.any(Number),
      });
      expect(res.body.records[0].tsvector_score).toBeGreaterThan(0);
      expect(searches).toEqual([
        {
          search: 'zurich',
          destination: 'CH',
          category: null,
          dates: null,
          discountclub: null,
          seaside: null,
          n_results: 1,
        },
      ]);
    });

    it('ranks names above destinations above descriptions, and applies the floor', async () => {
      const text = { rrfVectorWeight: 0 };
      const res = await list({ search: 'France Séjour', infoDensity: 'min', size: 100, ...text }).expect(200);
      expect(res.body.totalRecords).toBe(where((r) => r[1] === 'FR').filter((id) => id !== 'A06').length);
      const floored = await list({ search: 'France Séjour', tsvectorFloor: 1000, ...text }).expect(200);
      expect(floored.body).toEqual({
        totalRecords: 0,
        totalRecordsRelation: 'eq',
        totalFilteredRecords: 0,
        page: 1,
        records: [],
      });
      const full = await list({ search: 'voyage a04', size: 1, ...text }).expect(200);
      expect(full.body.records[0]).toEqual({
        ...RECORDS[3],
        _relevance_score: 1 / 61,
        semantic_score: expect.any(Number),
        tsvector_score: expect.any(Number),
      });
    });

    it('accepts a search of 500 characters', async () => {
      await list({ search: 'a'.repeat(500) }).expect(200);
    });
  });

  it('keeps byte order of ids whatever the source order', () => {
    expect(byId.size).toBe(12);
  });
});
