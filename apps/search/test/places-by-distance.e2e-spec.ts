import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { Gazetteer, loadGazetteer } from '../src/query/gazetteer/gazetteer';
import type { GeoPoint } from '../src/query/gazetteer/gazetteer';
import { SearchGazetteer } from '../src/query/gazetteer/search-gazetteer';
import { OfferPlacing } from '../src/indexes/reindex/offer-placer';
import { testPlacer } from '../src/indexes/reindex/offer-placer.spec-helper';
import { catalogueFolder, fillerOffers, makeOffer, toNdjson } from './catalogue-fixtures';
import { createTestApp, listTravels, readyAnswer, textSideIds } from './test-app';
import type { TestApp } from './test-app';

/**
 * Places covered by where the offers are (issue 62; docs/decisions.md D-88b), on offers written
 * for each class: a resort no offer names found by distance, a town inside a region covering the
 * region's offers, a region by the offers placed inside it, the activity deciding within the
 * place, a place holding no offer, a town name that is an ordinary word. The points are the test's
 * own (rounded from the towns'), given to the offers' placer and to the search's gazetteer alike.
 */
const POINTS: Record<string, GeoPoint> = {
  zermatt: { lat: 46.02, lon: 7.75 },
  mattertal: { lat: 46.1, lon: 7.8 },
  sion: { lat: 46.23, lon: 7.36 },
  crans_montana: { lat: 46.31, lon: 7.48 },
  verbier: { lat: 46.1, lon: 7.23 },
  chamonix: { lat: 45.92, lon: 6.87 },
  nice: { lat: 43.7, lon: 7.27 },
};

const offer = (id: string, name: string, description: string, code: string, country: string) =>
  makeOffer(id, {
    name,
    description,
    destination: { code, name: country },
    language: 'en',
  } as Partial<CatalogueRecord>);

const OFFERS = [
  offer(
    'ZSKI',
    'Ski week in Zermatt',
    'Seven days of skiing on the slopes above Zermatt.',
    'CH',
    'Switzerland',
  ),
  offer('ZHIKE', 'Hiking in Zermatt', 'Mountain trails and huts around Zermatt.', 'CH', 'Switzerland'),
  offer(
    'TSKI',
    'Ski touring in the Mattertal',
    'Tours from hut to hut in the Mattertal.',
    'CH',
    'Switzerland',
  ),
  offer(
    'CSKI',
    'Ski days in Crans-Montana',
    'Skiing on the sunny plateau of Crans-Montana.',
    'CH',
    'Switzerland',
  ),
  offer('VSKI', 'Ski safari in Verbier', 'Skiing the Four Valleys from Verbier.', 'CH', 'Switzerland'),
  offer('MSKI', 'Ski in Chamonix', 'Skiing below Mont Blanc in Chamonix.', 'FR', 'France'),
  offer('TSAF', 'Safari in Tanzania', 'Game drives in the Serengeti.', 'TZ', 'Tanzania'),
  offer('NBEACH', 'Beach days in Nice', 'The pebble beaches of the Promenade in Nice.', 'FR', 'France'),
  offer('SBEACH', 'Beaches of Sardinia', 'White sand beaches and turquoise coves.', 'IT', 'Italy'),
  // so that no word of the test's is held by more than a tenth of the offers (a frequent word is minor)
  ...fillerOffers(60),
];

interface Explained {
  records: {
    id: string;
    _explanation: {
      text: {
        places: {
          word: string;
          place: string;
          parent: string | null;
          in_catalogue: boolean;
          covered_by: string | null;
          distance_km: number | null;
        }[];
      };
    };
  }[];
}

describe('places covered by where the offers are (D-88b)', () => {
  let folder: Awaited<ReturnType<typeof catalogueFolder>>;
  let t: TestApp;

  beforeAll(async () => {
    folder = await catalogueFolder();
    const gazetteer = loadGazetteer();
    const pointed = new Gazetteer(
      gazetteer.places.map((place) => (POINTS[place.id] ? { ...place, point: POINTS[place.id] } : place)),
    );
    t = await createTestApp({
      env: {
        CATALOGUE_SOURCE: await folder.file('catalogue.ndjson', toNdjson(OFFERS)),
        // off by default (D-88b)
        SEARCH_PLACE_COVERAGE: 'true',
      },
      overrides: [
        { provide: OfferPlacing, useValue: { placer: () => testPlacer(POINTS) } },
        { provide: SearchGazetteer, useValue: { gazetteer: () => pointed } },
      ],
    });
    await t.reindex.idle();
    await readyAnswer(t);
  });
  afterAll(async () => {
    await t.close();
    await folder.cleanup();
  });

  it('finds a resort no offer names by distance, the activity first, and a town covers its region', async () => {
    // Sion: no offer is in it; Crans-Montana lies 13 km away, the others in its canton
    const ids = await textSideIds(t, 'ski Sion');
    expect(ids[0]).toBe('CSKI');
    // the region's offers after the one near it, the activity first among them
    expect(ids.slice(1, 4).sort()).toEqual(['TSKI', 'VSKI', 'ZSKI']);
    expect(ids[4]).toBe('ZHIKE');
    // nothing from elsewhere: the ski offer in Chamonix covers no part of Sion
    expect(ids).not.toContain('MSKI');
  });

  it('explains each resolution: the place, its parent, whether the catalogue holds it, the distance', async () => {
    const body = await listTravels<Explained>(t, {
      search: 'ski Sion',
      explain: 'true',
      rrfVectorWeight: '0',
    });
    const crans = body.records.find((record) => record.id === 'CSKI')!;
    expect(crans._explanation.text.places).toEqual([
      expect.objectContaining({
        word: 'sion',
        place: 'sion',
        parent: 'canton_valais',
        in_catalogue: false,
        covered_by: 'near',
      }),
    ]);
    expect(crans._explanation.text.places[0].distance_km).toBeGreaterThan(10);
    expect(crans._explanation.text.places[0].distance_km).toBeLessThan(15);
    const zermatt = body.records.find((record) => record.id === 'ZSKI')!;
    expect(zermatt._explanation.text.places[0]).toMatchObject({ covered_by: 'region', distance_km: null });
  });

  it('lets the activity decide within the place: an offer there without it never before one nearby with it', async () => {
    const ids = await textSideIds(t, 'ski Zermatt');
    expect(ids[0]).toBe('ZSKI');
    // ski touring in the Mattertal, 10 km from Zermatt's point, before the hiking week in Zermatt
    expect(ids[1]).toBe('TSKI');
    expect(ids[2]).toBe('ZHIKE');
    // then the canton's ski offers, then the activity elsewhere
    expect(ids.slice(3, 5).sort()).toEqual(['CSKI', 'VSKI']);
    expect(ids[5]).toBe('MSKI');
  });

  it('covers a region by the offers placed inside it, whatever names they use', async () => {
    const ids = await textSideIds(t, 'ski Wallis');
    expect(ids.slice(0, 4).sort()).toEqual(['CSKI', 'TSKI', 'VSKI', 'ZSKI']);
    expect(ids[4]).toBe('ZHIKE');
  });

  it('answers nothing for a place the catalogue holds no offer in nor near, on both sides', async () => {
    for (const rrfVectorWeight of ['0', '0.5']) {
      const body = await listTravels(t, { search: 'safari in Kenya', rrfVectorWeight });
      expect(body.records).toEqual([]);
      expect(body.totalRecords).toBe(0);
    }
    // the same words with a place the catalogue holds answer it first, then the activity elsewhere
    expect(await textSideIds(t, 'safari in Tanzania')).toEqual(['TSAF', 'VSKI']);
  });

  it('keeps a town name that is an ordinary word a word, unless a preposition of place puts it', async () => {
    const word = await listTravels<Explained>(t, {
      search: 'nice beaches',
      explain: 'true',
      rrfVectorWeight: '0',
    });
    expect(word.records.map((record) => record.id).sort()).toEqual(['NBEACH', 'SBEACH']);
    expect(word.records[0]._explanation.text.places).toEqual([]);
    const placed = await listTravels<Explained>(t, {
      search: 'beaches in Nice',
      explain: 'true',
      rrfVectorWeight: '0',
    });
    expect(placed.records[0].id).toBe('NBEACH');
    expect(placed.records[0]._explanation.text.places).toEqual([
      expect.objectContaining({ place: 'nice', in_catalogue: true, covered_by: 'inside' }),
    ]);
  });
});
