import { isApiError, type ApiError, type SearchClient, type SearchSchemas } from '@rt/client';
import { rejectionOf } from '@rt/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { makeOffer } from './catalogue-fixtures';
import { createCatalogueTestApp, searchClientOf, TestApp } from './test-app';

/**
 * The typed client (`@rt/client`, libs/client) against the running search service, over real
 * HTTP, and the committed contract snapshot it is generated from.
 */
const RECORDS: CatalogueRecord[] = [
  makeOffer('C1', {
    name: 'Zermatt ski week',
    description: 'Seven days on the slopes below the Matterhorn.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'ski', name: 'Ski' }],
    discountClub: true,
  }),
  makeOffer('C2', {
    name: 'Alpine ski safari',
    description: 'From Zermatt to St. Moritz on skis.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'ski', name: 'Ski' }],
    discountClub: false,
  }),
  makeOffer('C3', {
    name: 'Zermatt summer hiking',
    description: 'Trails, lakes and huts around Zermatt.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'hiking', name: 'Hiking' }],
    discountClub: true,
  }),
  makeOffer('C4', {
    name: 'Ski de fond dans le Jura',
    description: 'Pistes nordiques et fondues.',
    destination: { code: 'FR', name: 'France' },
    categories: [{ slug: 'ski', name: 'Ski' }],
    discountClub: true,
  }),
  makeOffer('C5', {
    name: 'Beach days in Mallorca',
    description: 'Sun, sea and coves.',
    destination: { code: 'ES', name: 'Spain' },
    categories: [{ slug: 'beach', name: 'Beach' }],
    seaside: true,
  }),
];

/** The ApiError a call rejects with. */
const failureOf = (call: Promise<unknown>): Promise<ApiError> => rejectionOf(call, isApiError);

describe('@rt/client against the search service', () => {
  let t: TestApp;
  let baseUrl: string;
  let search: SearchClient;

  beforeAll(async () => {
    t = await createCatalogueTestApp(RECORDS, { WITH_DOCS: 'true' });
    ({ client: search, baseUrl } = await searchClientOf(t));
  });
  afterAll(() => t.close());

  it('serves the committed contract snapshot at /openapi.json (run `pnpm client:generate` after a change)', async () => {
    const snapshot: unknown = JSON.parse(
      readFileSync(join(__dirname, '..', 'contract', 'openapi.json'), 'utf8'),
    );
    const served: unknown = await (await fetch(`${baseUrl}/openapi.json`)).json();
    expect(served).toEqual(snapshot);
  });

  it('runs a hybrid search with filters; records shaped by infoDensity', async () => {
    const listing = await search.travels({
      search: 'zermatt ski',
      destination: 'CH',
      category: 'ski,hiking',
      discountclub: true,
      infoDensity: 'search',
      size: 10,
    });
    expect(listing.fallback).toBe(false);
    expect(listing.page).toBe(1);
    const ids = listing.records.map((record) => record.id);
    expect(ids.sort()).toEqual(['C1', 'C3']);
    expect(listing.totalRecords).toBe(2);
    expect(listing.totalFilteredRecords).toBe(2);
    for (const record of listing.records) {
      expect(record).toMatchObject({ destination: 'Switzerland', discount_club: true, is_valid: true });
      expect(record._relevance_score).toBeGreaterThan(0);
      expect(Object.keys(record).sort()).toEqual(
        [
          '_relevance_score',
          'semantic_score',
          'tsvector_score',
          'id',
          'name',
          'destination',
          'discount_club',
          'is_valid',
          'travel_ranges',
          'departure_dates',
        ].sort(),
      );
    }
    const scores = listing.records.map((record) => record._relevance_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('filters without a search through the typed GET, cards in id order', async () => {
    const listing = await search.GET('/travels', {
      params: { query: { infoDensity: 'card', category: 'ski', page: 1, size: 2 } },
    });
    expect(listing.totalRecords).toBe(3);
    expect(listing.records.map((record) => record.id)).toEqual(['C1', 'C2']);
    expect(listing.records[0]).toMatchObject({ _relevance_score: 1, semantic_score: 0, tsvector_score: 0 });
    const root = await search.GET('/');
    expect(root['app-name']).toEqual(expect.any(String));
  });

  it('asks for facets and reads them typed, the unknown filter value named', async () => {
    const listing = await search.travels({
      category: 'ski,skiing',
      facets: 'destination,discountclub',
      infoDensity: 'min',
    });
    expect(listing.totalRecords).toBe(3);
    const facets: SearchSchemas['FacetsDto'] | undefined = listing.facets;
    expect(facets).toEqual({
      relation: 'eq',
      counts: {
        destination: {
          values: [
            { value: 'CH', count: 2 },
            { value: 'FR', count: 1 },
          ],
          valuesLeftOut: 0,
        },
        discountclub: {
          values: [
            { value: 'true', count: 2 },
            { value: 'false', count: 1 },
          ],
          valuesLeftOut: 0,
        },
      },
      unknownFilterValues: { category: ['skiing'], destination: [] },
    });
    expect((await search.travels({ category: 'ski' })).facets).toBeUndefined();
    const error = await failureOf(search.travels({ facets: 'price' }));
    expect(error).toMatchObject({ status: 422, body: { errors: { facets: [expect.any(String)] } } });
  });

  it('reports out-of-bounds parameters as a 422 with the field map', async () => {
    const error = await failureOf(search.travels({ size: 101, rrfVectorWeight: 2 }));
    expect(error.status).toBe(422);
    expect(error.requestId).toMatch(/\S/);
    if (!error.is('validation_failed')) throw new Error(`unexpected ${error.error}`);
    expect(Object.keys(error.body.errors).sort()).toEqual(['rrfVectorWeight', 'size']);
    expect(error.body.reason).toBeUndefined();
  });

  it('reports a malformed dates filter as a 422, not a 500', async () => {
    const error = await failureOf(search.travels({ dates: '2027-02-30_2027-03-01' }));
    expect(error).toMatchObject({ status: 422, body: { error: 'validation_failed' } });
  });
});
