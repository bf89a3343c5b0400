import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { FACET_VALUE_LIMIT } from '../src/request/listing-facets';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import { makeOffer } from './catalogue-fixtures';
import { catalogueTestAppAround, createTestApp, TestApp } from './test-app';

/**
 * Facets on GET /travels (docs/decisions.md D-81): per asked field, the number of offers per value
 * over exactly the set totalRecords counts, against counts computed here from the catalogue.
 */

/** 55 destinations (more than FACET_VALUE_LIMIT), the first five held twice. */
const CODES = Array.from(
  { length: 55 },
  (_, i) => `${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
);
const OFFERS = 60;

const CATALOGUE: CatalogueRecord[] = Array.from({ length: OFFERS }, (_, i) => {
  const categories = [['beach'], ['ski', 'family'], ['culture']][i % 3].concat(
    i % 7 === 0 ? ['wellness'] : [],
  );
  const panorama = i % 12 === 0;
  return makeOffer(`FC${String(i).padStart(2, '0')}`, {
    name: panorama ? `Panorama lookout tour ${i}` : `Offer number ${i}`,
    description: panorama ? 'Glaciers and a panorama from the summit.' : 'Somewhere else entirely.',
    destination: { code: CODES[i % CODES.length], name: `Country ${CODES[i % CODES.length]}` },
    categories: categories.map((slug) => ({ slug, name: slug })),
    discountClub: i % 2 === 0,
    seaside: i % 5 === 0,
    isValid: i % 4 !== 1,
    departureDates: [i % 3 === 0 ? '2027-07-10T08:00:00' : '2027-03-01T08:00:00'],
  });
});

type Counts = Record<string, Record<string, number>>;

interface FacetField {
  values: { value: string; count: number }[];
  valuesLeftOut: number;
}
interface Answer {
  totalRecords: number;
  totalRecordsRelation: string;
  records: CatalogueRecord[];
  facets?: {
    relation: string;
    counts: Record<string, FacetField>;
    unknownFilterValues: { category: string[]; destination: string[] };
  };
}

/** The counts of the four fields over `records`, as the service counts them. */
function countsOf(records: CatalogueRecord[]): Counts {
  const counts: Counts = { category: {}, destination: {}, discountclub: {}, seaside: {} };
  const add = (field: string, value: string) => (counts[field][value] = (counts[field][value] ?? 0) + 1);
  for (const record of records) {
    for (const slug of new Set((record.categories ?? []).map((category) => category.slug)))
      add('category', slug);
    if (record.destination) add('destination', record.destination.code);
    add('discountclub', String(record.discountClub));
    add('seaside', String(record.seaside));
  }
  return counts;
}

/** A field's answer as a map of every value (valuesLeftOut must be 0 for it to be whole). */
const asMap = (field: FacetField) =>
  Object.fromEntries(field.values.map(({ value, count }) => [value, count]));

const ALL_FIELDS = 'category,destination,discountclub,seaside';

describe('facets on GET /travels', () => {
  const app = catalogueTestAppAround(CATALOGUE);

  const list = async (query: Record<string, string>, instance: TestApp = app()) =>
    (
      await instance.http
        .get('/travels')
        .query({ size: '100', ...query })
        .expect(200)
    ).body as Answer;

  /** Every field's counts equal `expected` (the destination field: its FACET_VALUE_LIMIT largest). */
  function expectCounts(answer: Answer, expected: Counts) {
    const { counts } = answer.facets!;
    for (const field of ['category', 'discountclub', 'seaside']) {
      expect(counts[field].valuesLeftOut).toBe(0);
      expect(asMap(counts[field])).toEqual(expected[field]);
    }
    const destinations = Object.entries(expected.destination)
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
    expect(counts.destination.values).toEqual(destinations.slice(0, FACET_VALUE_LIMIT));
    expect(counts.destination.valuesLeftOut).toBe(Math.max(0, destinations.length - FACET_VALUE_LIMIT));
  }

  const FILTERS: [Record<string, string>, (record: CatalogueRecord) => boolean][] = [
    [{}, () => true],
    [{ category: 'ski' }, (r) => r.categories!.some((c) => c.slug === 'ski')],
    [
      { category: 'beach,wellness', seaside: 'true' },
      (r) => r.seaside === true && r.categories!.some((c) => ['beach', 'wellness'].includes(c.slug)),
    ],
    [{ discountclub: 'no' }, (r) => r.discountClub === false],
    [{ destination: 'ab' }, (r) => r.destination?.code === 'AB'],
    [
      { dates: '2027-07-01_2027-07-31', hide_invalid: 'true' },
      (r) => r.isValid === true && r.departureDates!.some((date) => date.startsWith('2027-07')),
    ],
    [
      { category: 'ski', orderBy: 'rating', orderDirection: 'desc' },
      (r) => r.categories!.some((c) => c.slug === 'ski'),
    ],
  ];

  it.each(FILTERS)(
    'counts a filter-only listing over the offers passing the filters (%j)',
    async (filters, passes) => {
      const expected = CATALOGUE.filter(passes);
      const answer = await list({ ...filters, facets: ALL_FIELDS, infoDensity: 'min' });
      expect(answer.totalRecords).toBe(expected.length);
      expect(answer.facets!.relation).toBe('eq');
      expectCounts(answer, countsOf(expected));
    },
  );

  it('caps each field at the largest values, count descending then value ascending, the rest counted', async () => {
    const { facets } = await list({ facets: 'destination', infoDensity: 'min' });
    const { values, valuesLeftOut } = facets!.counts.destination;
    expect(values).toHaveLength(FACET_VALUE_LIMIT);
    expect(valuesLeftOut).toBe(CODES.length - FACET_VALUE_LIMIT);
    // the five codes held twice first, then the others in code order
    expect(values.slice(0, 6)).toEqual([
      ...CODES.slice(0, 5).map((value) => ({ value, count: 2 })),
      { value: CODES[5], count: 1 },
    ]);
    expect(values.at(-1)).toEqual({ value: CODES[FACET_VALUE_LIMIT - 1], count: 1 });
    expect(Object.keys(facets!.counts)).toEqual(['destination']);
  });

  it('counts a full-text search (rrfVectorWeight 0) over exactly its matches', async () => {
    const matches = CATALOGUE.filter((record) => record.name.startsWith('Panorama'));
    expect(matches.length).toBe(5);
    const answer = await list({
      search: 'panorama',
      rrfVectorWeight: '0',
      facets: ALL_FIELDS,
      infoDensity: 'min',
    });
    expect(answer.totalRecords).toBe(matches.length);
    expectCounts(answer, countsOf(matches));
    const filtered = await list({
      search: 'panorama',
      rrfVectorWeight: '0',
      discountclub: 'true',
      facets: ALL_FIELDS,
      infoDensity: 'min',
    });
    expectCounts(filtered, countsOf(matches.filter((record) => record.discountClub)));
  });

  it.each<Record<string, string>>([
    { search: 'panorama', rrfVectorWeight: '0.5' },
    { search: 'panorama glaciers summit', rrfVectorWeight: '1', semanticFloor: '0' },
    { search: 'offer number', rrfVectorWeight: '0.3', semanticFloor: '0', seaside: 'false' },
    { search: 'panorama', semanticFloor: '0', category: 'beach,ski' },
  ])(
    'counts a hybrid search over the union totalRecords counts, every record of it paged (%j)',
    async (query) => {
      const answer = await list({ ...query, facets: ALL_FIELDS });
      expect(answer.records.length).toBe(answer.totalRecords);
      expect(answer.totalRecords).toBeGreaterThan(0);
      expectCounts(answer, countsOf(answer.records));
      expect(answer.facets!.relation).toBe('eq');
    },
  );

  it('names the category and destination filter values no offer holds, still 200', async () => {
    const category = await list({ category: 'skiing,beach,snorkel', facets: 'category', infoDensity: 'min' });
    expect(category.facets!.unknownFilterValues).toEqual({
      category: ['skiing', 'snorkel'],
      destination: [],
    });
    expect(category.totalRecords).toBe(
      CATALOGUE.filter((r) => r.categories!.some((c) => c.slug === 'beach')).length,
    );
    const destination = await list({
      destination: 'zz',
      category: 'skiing',
      facets: 'seaside',
      infoDensity: 'min',
    });
    expect(destination).toMatchObject({ totalRecords: 0, records: [] });
    expect(destination.facets).toEqual({
      relation: 'eq',
      counts: { seaside: { values: [], valuesLeftOut: 0 } },
      unknownFilterValues: { category: ['skiing'], destination: ['ZZ'] },
    });
    const search = await list({
      search: 'panorama',
      category: 'skiing',
      facets: 'category',
      infoDensity: 'min',
    });
    expect(search.facets!.unknownFilterValues).toEqual({ category: ['skiing'], destination: [] });
    const known = await list({ destination: 'AA', category: 'ski', facets: 'category', infoDensity: 'min' });
    expect(known.facets!.unknownFilterValues).toEqual({ category: [], destination: [] });
  });

  it.each<Record<string, string>>([
    {},
    { category: 'ski', orderBy: 'rating' },
    { search: 'panorama' },
    { search: 'panorama', rrfVectorWeight: '0', explain: 'true' },
  ])('answers exactly as before without the parameter (%j)', async (query) => {
    const without = await list({ ...query, size: '8' });
    expect(Object.keys(without)).toEqual([
      'totalRecords',
      'totalRecordsRelation',
      'totalFilteredRecords',
      'page',
      'records',
    ]);
    const { facets, ...rest } = await list({ ...query, size: '8', facets: 'seaside' });
    expect(facets).toBeDefined();
    expect(rest).toEqual(without);
    // an empty value counts as absent
    expect(await list({ ...query, size: '8', facets: '' })).toEqual(without);
  });

  it.each([
    ['facets=price', 'facets accepts category, destination, discountclub, seaside; not price.'],
    [
      'facets=category,Destination,x',
      'facets accepts category, destination, discountclub, seaside; not Destination, x.',
    ],
    ['facets=category&facets=seaside', 'facets must be given once; it was repeated.'],
  ])('refuses an unknown field with 422 naming the parameter (%s)', async (query, message) => {
    const res = await app().http.get(`/travels?${query}`).expect(422);
    expect(res.body).toEqual({ message, errors: { facets: [message] } });
  });

  describe('with the counting bounded (SEARCH_TOTAL_EXACT_LIMIT)', () => {
    const LIMIT = 10;
    let bounded: TestApp;
    beforeAll(async () => {
      bounded = await createTestApp({
        database: app().database,
        env: { SEARCH_TOTAL_EXACT_LIMIT: String(LIMIT) },
      });
    });
    afterAll(() => bounded?.close());

    it('a filter-only listing counts the first offers of the bound in id order, marked gte', async () => {
      const answer = await list({ facets: ALL_FIELDS, infoDensity: 'min' }, bounded);
      expect(answer).toMatchObject({ totalRecords: LIMIT, totalRecordsRelation: 'gte' });
      expect(answer.facets!.relation).toBe('gte');
      expectCounts(answer, countsOf(CATALOGUE.slice(0, LIMIT)));
      const filtered = await list({ discountclub: 'true', facets: ALL_FIELDS, infoDensity: 'min' }, bounded);
      expect(filtered).toMatchObject({ totalRecords: LIMIT, totalRecordsRelation: 'gte' });
      expect(filtered.facets!.relation).toBe('gte');
      expectCounts(filtered, countsOf(CATALOGUE.filter((r) => r.discountClub).slice(0, LIMIT)));
      const below = await list({ destination: 'AA', facets: ALL_FIELDS, infoDensity: 'min' }, bounded);
      expect(below.facets!.relation).toBe('eq');
      expectCounts(below, countsOf(CATALOGUE.filter((r) => r.destination?.code === 'AA')));
    });

    it('a search counts its whole set, as the unbounded service does', async () => {
      const query = { search: 'offer number', semanticFloor: '0', facets: ALL_FIELDS, infoDensity: 'min' };
      const exact = await list(query);
      expect(exact.totalRecords).toBeGreaterThan(LIMIT);
      const answer = await list(query, bounded);
      expect(answer.totalRecordsRelation).toBe('gte');
      expect(answer.facets).toEqual(exact.facets);
    });
  });

  it('counts a filter-only listing from the generation its page was read from, loading a new one first', async () => {
    const replica = await createTestApp({
      database: app().database,
      env: { SEARCH_TEXT_INDEX_POLL_MS: '0' },
    });
    try {
      const service = replica.app.get(TextIndexService);
      const held = (await service.loaded()).generation;
      // a reindex elsewhere wrote a new generation; this replica does not poll
      await replica.dataSource.query(
        "UPDATE search_stats SET generation = nextval('search_index_generation')",
      );
      const answer = await list({ category: 'ski', facets: ALL_FIELDS, infoDensity: 'min' }, replica);
      expect(service.current()?.generation).not.toBe(held);
      const expected = CATALOGUE.filter((r) => r.categories!.some((c) => c.slug === 'ski'));
      expect(answer.totalRecords).toBe(expected.length);
      expectCounts(answer, countsOf(expected));
    } finally {
      await replica.close();
    }
  }, 120_000);
});
