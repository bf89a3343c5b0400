import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { OfferPlacing } from '../src/indexes/reindex/offer-placer';
import type { OfferPlacer } from '../src/indexes/reindex/offer-placer';
import { TEST_POINTS, testPlacer } from '../src/indexes/reindex/offer-placer.spec-helper';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import type { TextIndex } from '../src/indexes/text-index/text-index';
import { catalogueFolder, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, readyAnswer, TestApp } from './test-app';
import { createTestDatabase } from '@rt/testing';
import type { TestDatabase } from '@rt/testing';

/**
 * Every offer placed (issue 62; docs/decisions.md D-88): the reindex stores each offer's places
 * and points from its destination country and the places its text says it is in (not where it
 * departs), in the transaction of its postings; a replica loads them with the posting blocks.
 */
const swiss = (id: string, description: string, overrides: Partial<CatalogueRecord> = {}) =>
  makeOffer(id, {
    name: `Semaine ${id}`,
    description,
    destination: { code: 'CH', name: 'Suisse' },
    language: 'fr',
    ...overrides,
  } as Partial<CatalogueRecord>);

const V1 = [
  swiss('P1', 'Un chalet à Zermatt, ski tous les jours. Départ de Genève, Bâle ou Zurich.'),
  makeOffer('P2', {
    name: 'Dolce vita',
    description: 'Une semaine de farniente.',
    destination: { code: 'IT', name: 'Italia' },
  }),
  swiss('P3', 'Au départ de Zurich : randonnées et fondue.'),
];

/** A placer that throws on an offer whose name says so: an apply that fails half way. */
function failingOn(word: string, placer: OfferPlacer): OfferPlacer {
  return Object.assign(Object.create(placer) as OfferPlacer, {
    place: (offer: Parameters<OfferPlacer['place']>[0]) => {
      if (offer.name.includes(word)) throw new Error(`cannot place ${offer.name}`);
      return placer.place(offer);
    },
  });
}

describe('offer places', () => {
  let folder: Awaited<ReturnType<typeof catalogueFolder>>;
  let database: TestDatabase;
  let t: TestApp;
  const placing = { current: testPlacer() };

  const start = async (records: CatalogueRecord[]) => {
    t = await createTestApp({
      database,
      env: { CATALOGUE_SOURCE: await folder.file('catalogue.ndjson', toNdjson(records)) },
      overrides: [{ provide: OfferPlacing, useValue: { placer: () => placing.current } }],
    });
    await t.reindex.idle();
    await readyAnswer(t);
  };
  const rewrite = (records: CatalogueRecord[]) => folder.file('catalogue.ndjson', toNdjson(records));
  const stored = async (): Promise<Record<string, { places: string[]; points: string }>> => {
    const rows = (await t.dataSource.query(
      `SELECT offer_id, places, encode(points, 'hex') AS points FROM search_offer_places ORDER BY offer_id`,
    )) as { offer_id: string; places: string[]; points: string }[];
    return Object.fromEntries(rows.map((row) => [row.offer_id, { places: row.places, points: row.points }]));
  };
  const stats = async () =>
    (
      (await t.dataSource.query(
        `SELECT generation::text AS generation, blocks_generation::text AS blocks,
           places_generation::text AS places, places_version FROM search_stats`,
      )) as { generation: string; blocks: string; places: string | null; places_version: string | null }[]
    )[0];
  const loaded = async (): Promise<TextIndex> => {
    const service = t.app.get(TextIndexService);
    await service.refresh();
    return service.loaded();
  };
  /** An offer's places and points as the loaded index holds them. */
  const placesOf = (index: TextIndex, id: string) => {
    const o = index.ordinalOf(id)!;
    const { placeStart, places, placeIds, pointStart, lat, lon } = index.places;
    const points = [];
    for (let i = pointStart[o]; i < pointStart[o + 1]; i++) points.push({ lat: lat[i], lon: lon[i] });
    return {
      places: [...places.subarray(placeStart[o], placeStart[o + 1])].map((n) => placeIds[n]),
      points,
    };
  };
  const near = (point: { lat: number; lon: number }) => ({
    lat: expect.closeTo(point.lat, 4) as number,
    lon: expect.closeTo(point.lon, 4) as number,
  });

  beforeAll(async () => {
    folder = await catalogueFolder();
    // its own, so that a second instance (a new release's gazetteer) runs on the same index
    database = await createTestDatabase('search');
    await start(V1);
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
    await folder.cleanup();
  });

  it('stores each offer placed where its text and destination say, not where it departs', async () => {
    const rows = await stored();
    expect(rows.P1.places).toEqual(['canton_valais', 'ch', 'mattertal', 'upper_valais', 'zermatt']);
    expect(rows.P2).toEqual({ places: ['it'], points: '' });
    expect(rows.P3).toEqual({ places: ['ch'], points: '' });
    expect(await stats()).toMatchObject({ places_version: 'test-1' });
    const { generation, places } = await stats();
    expect(places).toBe(generation);
  });

  it('the loaded text index holds them by ordinal: Zermatt at its point with the places containing it', async () => {
    const index = await loaded();
    expect(placesOf(index, 'P1')).toEqual({
      places: ['canton_valais', 'ch', 'mattertal', 'upper_valais', 'zermatt'],
      points: [near(TEST_POINTS.zermatt)],
    });
    expect(placesOf(index, 'P2')).toEqual({ places: ['it'], points: [] });
    expect(placesOf(index, 'P3')).toEqual({ places: ['ch'], points: [] });
    expect(index.places.placeIds).toEqual([...index.places.placeIds].sort());
  });

  it('a reindex that changes an offer text changes its places; unchanged offers keep theirs', async () => {
    const before = await stored();
    await rewrite([swiss('P1', 'Un chalet à Saas-Fee, au départ de Zermatt.'), ...V1.slice(1)]);
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', updated: 1, unchanged: 2 });
    const after = await stored();
    expect(after.P1.places).toEqual(['canton_valais', 'ch', 'saas_fee', 'saastal', 'upper_valais']);
    expect(after.P2).toEqual(before.P2);
    expect(after.P3).toEqual(before.P3);
    expect(placesOf(await loaded(), 'P1').places).toContain('saas_fee');
    await rewrite(V1);
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', updated: 1 });
    expect(await stored()).toEqual(before);
  });

  it('a reindex that fails while placing leaves the catalogue and its places as they were', async () => {
    const before = await stored();
    const { generation } = await stats();
    const kept = placing.current;
    placing.current = failingOn('BOOM', kept);
    try {
      await rewrite([swiss('P1', 'Un chalet à Saas-Fee.', { name: 'BOOM' }), ...V1.slice(1)]);
      expect(await t.reindex.run('cli')).toMatchObject({ status: 'failed' });
    } finally {
      placing.current = kept;
    }
    expect(await stored()).toEqual(before);
    expect((await stats()).generation).toBe(generation);
    await rewrite(V1);
  });

  it('a new gazetteer (another version) places every offer again without re-embedding, in a new generation', async () => {
    const embeddings = async () =>
      t.dataSource.query('SELECT id, embedding::text AS embedding FROM travel_offers ORDER BY id') as Promise<
        unknown[]
      >;
    const vectors = await embeddings();
    const { generation } = await stats();
    const moved = { lat: 46.0207, lon: 7.7491 };
    await t.close();
    placing.current = testPlacer({ ...TEST_POINTS, zermatt: moved }, 'test-2');
    await start(V1);
    expect(await t.reindex.run('cli')).toMatchObject({
      status: 'succeeded',
      inserted: 0,
      updated: 0,
      unchanged: 3,
    });
    expect(await embeddings()).toEqual(vectors);
    const now = await stats();
    expect(BigInt(now.generation)).toBeGreaterThan(BigInt(generation));
    expect(now).toMatchObject({ places_version: 'test-2', places: now.generation, blocks: now.generation });
    const index = await loaded();
    expect(index.generation).toBe(now.generation);
    expect(placesOf(index, 'P1').points).toEqual([near(moved)]);
    // the same version again: nothing to do, the generation stays
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', updated: 0 });
    expect((await stats()).generation).toBe(now.generation);
  });

  it('loads a generation written without places (the previous release) with none, and searches; a reindex places them', async () => {
    // what a reindex of the release before AddOfferPlaces leaves: a new generation, no places marked
    await t.dataSource.query(
      `WITH next AS (SELECT nextval('search_index_generation') AS g)
       UPDATE search_stats SET generation = next.g, blocks_generation = next.g, places_generation = NULL FROM next`,
    );
    const index = await loaded();
    expect(index.places.placeIds).toEqual([]);
    expect(index.places.placeStart).toHaveLength(index.offers + 1);
    expect(placesOf(index, 'P1')).toEqual({ places: [], points: [] });
    const found = await t.http.get('/travels?search=Zermatt').expect(200);
    expect((found.body.records as { id: string }[]).map((r) => r.id)).toContain('P1');
    expect(await t.reindex.run('cli')).toMatchObject({ status: 'succeeded', updated: 0 });
    expect(placesOf(await loaded(), 'P1').places).toContain('zermatt');
  });
});
