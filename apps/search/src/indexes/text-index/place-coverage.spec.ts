import type { ResolvedPlace } from '../../query/analysis/analysed-query';
import { MAJOR_CONCEPT, PLACE_CONCEPT } from '../../query/analysis/similarity';
import type { QueryWord } from '../../query/analysis/query-words';
import { filterColumnsOf } from './offer-filters.spec-helper';
import { distanceKm } from './offer-places';
import type { OfferPlaces } from './offer-places';
import {
  LEAST_PLACE_SHARE,
  NEAR_SHARE_MAX,
  NEAR_SHARE_MIN,
  nearShareOf,
  PLACE_HOW,
  placeHitsOf,
  REGION_SHARE,
} from './place-coverage';
import { textQueryOf } from './query-terms';
import type { QueryTerm } from './query-terms';
import { TextIndex } from './text-index';
import { explainSearch } from './text-explain';
import type { TextQuery } from './text-index';

const word = (position: number): QueryWord => ({ kind: 'word', position });

// Points written for the test (rounded from the towns' own): Täsch, Zermatt, Randa, Saas-Fee, Lausanne.
const TASCH = { lat: 46.068, lon: 7.778 };
const ZERMATT = { lat: 46.0207, lon: 7.7491 };
const RANDA = { lat: 46.099, lon: 7.78 };
const SAAS_FEE = { lat: 46.108, lon: 7.928 };
const LAUSANNE = { lat: 46.52, lon: 6.63 };

const PLACE_IDS = ['valais', 'mattertal', 'zermatt', 'vaud'];

/** OfferPlaces of offers given as their points and place ids. */
function offerPlacesOf(offers: { points: { lat: number; lon: number }[]; places: string[] }[]): OfferPlaces {
  const pointStart = [0];
  const placeStart = [0];
  const lat: number[] = [];
  const lon: number[] = [];
  const places: number[] = [];
  for (const offer of offers) {
    for (const point of offer.points) {
      lat.push(point.lat);
      lon.push(point.lon);
    }
    for (const id of offer.places) places.push(PLACE_IDS.indexOf(id));
    pointStart.push(lat.length);
    placeStart.push(places.length);
  }
  return {
    pointStart: Uint32Array.from(pointStart),
    lat: Float32Array.from(lat),
    lon: Float32Array.from(lon),
    placeStart: Uint32Array.from(placeStart),
    places: Uint32Array.from(places),
    placeIds: PLACE_IDS,
  };
}

// 0 hiking in Zermatt, 1 skiing in Randa, 2 skiing in Lausanne, 3 skiing in Saas-Fee, 4 hiking in Lausanne
const OFFERS = offerPlacesOf([
  { points: [ZERMATT], places: ['zermatt', 'mattertal', 'valais'] },
  { points: [RANDA], places: ['mattertal', 'valais'] },
  { points: [LAUSANNE], places: ['vaud'] },
  { points: [SAAS_FEE], places: ['valais'] },
  { points: [LAUSANNE], places: ['vaud'] },
]);
const ORDINALS = new Map(PLACE_IDS.map((id, i) => [id, i]));

const place = (overrides: Partial<ResolvedPlace> & Pick<ResolvedPlace, 'id'>): ResolvedPlace => ({
  token: overrides.id,
  position: 2,
  kind: 'city',
  name: overrides.id,
  radiusKm: 15,
  regions: [],
  members: [],
  ...overrides,
});
const tasch = place({ id: 'tasch', point: TASCH, regions: ['mattertal', 'valais'] });
const zermatt = place({ id: 'zermatt', point: ZERMATT, regions: ['mattertal', 'valais'] });
const kenya = place({ id: 'ke', kind: 'country', radiusKm: 0 });

function indexOf(offers = OFFERS): TextIndex {
  const count = offers.placeStart.length - 1;
  const ski = [1, 2, 3];
  return new TextIndex(
    '1',
    Array.from({ length: count }, (_, i) => `OFFER-${i}`),
    new Map([['ski', { ordinals: Int32Array.from(ski), impacts: Float32Array.from(ski.map(() => 1)) }]]),
    filterColumnsOf(Array.from({ length: count }, () => 'CH')),
    count,
    undefined,
    undefined,
    offers,
  );
}

/** "ski <place>": the activity (word 1) and the place (word 2), the place named by no offer. */
function skiIn(...places: ResolvedPlace[]): TextQuery {
  return {
    terms: [{ word: word(1), term: 'ski', factor: 1, conceptWeight: MAJOR_CONCEPT, selects: true }],
    coverable: MAJOR_CONCEPT,
    places: places.map((resolved) => ({ word: word(2), conceptWeight: PLACE_CONCEPT, place: resolved })),
    placeCoverable: PLACE_CONCEPT,
  };
}

/** The matches' offers best first. */
function ranked(index: TextIndex, query: TextQuery): number[] {
  return index
    .match(query)
    .best(10, 0)
    .map((match) => match.ordinal);
}

describe('placeHitsOf (D-88b, coverage by distance)', () => {
  it('covers a place by the offers inside it, near its point by distance, and in its regions', () => {
    const hits = placeHitsOf(OFFERS, ORDINALS, zermatt);
    expect([...hits.ordinals]).toEqual([0, 1, 3]);
    expect([...hits.how]).toEqual([PLACE_HOW.inside, PLACE_HOW.near, PLACE_HOW.region]);
    expect(hits.shares[0]).toBe(1);
    const randa = distanceKm(ZERMATT, RANDA);
    expect(hits.distances[1]).toBeCloseTo(randa, 3);
    expect(hits.shares[1]).toBeCloseTo(nearShareOf(randa, 15), 4);
    // Saas-Fee lies beyond Zermatt's radius, in its region (Valais)
    expect(distanceKm(ZERMATT, SAAS_FEE)).toBeGreaterThan(15);
    expect(hits.shares[2]).toBe(REGION_SHARE);
    expect(hits.holdsOffers).toBe(true);
  });

  it('falls with distance from the most at the point to the least at the radius, beyond it nothing', () => {
    expect(nearShareOf(0, 15)).toBe(NEAR_SHARE_MAX);
    expect(nearShareOf(15, 15)).toBeCloseTo(NEAR_SHARE_MIN, 12);
    expect(nearShareOf(5, 15)).toBeGreaterThan(nearShareOf(10, 15));
    const hits = placeHitsOf(OFFERS, ORDINALS, place({ id: 'x', point: LAUSANNE, radiusKm: 5 }));
    expect([...hits.ordinals]).toEqual([2, 4]);
    expect(
      placeHitsOf(OFFERS, ORDINALS, place({ id: 'x', point: { lat: 0, lon: 0 } })).ordinals,
    ).toHaveLength(0);
  });

  it('keeps every share near the place above what the activity weighs beside it, the region major but below', () => {
    expect(NEAR_SHARE_MIN).toBeGreaterThan(LEAST_PLACE_SHARE);
    expect(REGION_SHARE).toBeLessThan(LEAST_PLACE_SHARE);
    expect(REGION_SHARE * PLACE_CONCEPT).toBeGreaterThan(MAJOR_CONCEPT);
  });

  it('says a place holds no offer when none lies inside it, even with offers near it', () => {
    const hits = placeHitsOf(OFFERS, ORDINALS, tasch);
    expect(hits.holdsOffers).toBe(false);
    expect([...hits.ordinals]).toEqual([0, 1, 3]);
    expect([...hits.how]).toEqual([PLACE_HOW.near, PLACE_HOW.near, PLACE_HOW.near]);
  });
});

describe('TextIndex.match with places covered by where the offers are', () => {
  const index = indexOf();

  it('lets the activity decide within the place: near with the activity before inside without it', () => {
    // 1 (near, ski) before 0 (inside, no ski), then 3 (in its region, ski), 2 (ski elsewhere) last
    expect(ranked(index, skiIn(zermatt))).toEqual([1, 0, 3, 2]);
  });

  it('never lets the place lift an offer without the activity above one nearby with it, at any distance in the radius', () => {
    for (let km = 0; km <= 15; km += 0.5) {
      expect(nearShareOf(km, 15) * PLACE_CONCEPT + MAJOR_CONCEPT).toBeGreaterThan(PLACE_CONCEPT);
    }
  });

  it('answers a town no offer is in with the offers near it by distance, the activity first, nothing from elsewhere', () => {
    const matches = index.match(skiIn(tasch));
    expect(matches.placesOutside).toBe(true);
    const best = matches.best(10, 0);
    // Randa (3.5 km, ski), Saas-Fee (13 km, ski), then Zermatt (5.5 km, no ski); Lausanne's ski never
    expect(best.map((match) => match.ordinal)).toEqual([1, 3, 0]);
    // an offer covered only by distance scores its place part times its coverage (D-53 amended)
    expect(best[2].score).toBeGreaterThan(0);
  });

  it('answers nothing for a place with no offer in it nor near it', () => {
    const matches = index.match(skiIn(kenya));
    expect(matches.placesOutside).toBe(true);
    expect(matches.best(10, 0)).toEqual([]);
  });

  it('applies the filters to the offers covering a place', () => {
    const matches = index.match(skiIn(tasch), (o) => o !== 1);
    expect(matches.best(10, 0).map((match) => match.ordinal)).toEqual([3, 0]);
  });

  it('covers places by their names only when the index does not know where its offers are', () => {
    const blind = new TextIndex('1', index.ids, index.postings, index.filters, index.indexedOffers);
    const matches = blind.match(skiIn(tasch));
    expect(matches.placesOutside).toBe(false);
    expect(matches.best(10, 0).map((match) => match.ordinal)).toEqual([1, 2, 3]);
  });
});

describe('textQueryOf with places', () => {
  const term = (position: number, conceptWeight: number): QueryTerm => ({
    word: word(position),
    term: `w${position}`,
    documents: 1,
    weight: 1,
    kind: 'exact',
    idf: 1,
    conceptDocuments: 1,
    conceptIdf: 1,
    factor: 1,
    frequent: false,
    conceptWeight,
  });

  it('adds the weight of a place no term covers to what is coverable by where offers are', () => {
    const query = textQueryOf([term(1, MAJOR_CONCEPT)], undefined, [tasch]);
    expect(query.coverable).toBe(MAJOR_CONCEPT);
    expect(query.placeCoverable).toBe(PLACE_CONCEPT);
    expect(query.places?.map((entry) => entry.word)).toEqual([word(2)]);
    const named = textQueryOf([term(1, MAJOR_CONCEPT), term(2, PLACE_CONCEPT)], undefined, [tasch]);
    expect(named.coverable).toBe(MAJOR_CONCEPT + PLACE_CONCEPT);
    expect(named.placeCoverable).toBe(0);
  });
});

describe('explainSearch with places (D-88b)', () => {
  const index = indexOf();
  const skiTerm: QueryTerm = {
    word: word(1),
    term: 'ski',
    documents: 3,
    weight: 1,
    kind: 'exact',
    idf: 1,
    conceptDocuments: 3,
    conceptIdf: 1,
    factor: 1,
    frequent: false,
    conceptWeight: MAJOR_CONCEPT,
  };

  it('shows each resolution and, per offer, how and how far it covers the place, adding up to its score', () => {
    const analysed = { terms: [skiTerm], words: ['ski', 'tasch'], expansion: { places: [tasch] } };
    const { rows, places, placesOutside } = explainSearch(index, analysed, ['OFFER-1', 'OFFER-0', 'OFFER-2']);
    expect(places).toEqual([{ place: tasch, holdsOffers: false }]);
    expect(placesOutside).toBe(true);
    const randa = rows.find((row) => row.id === 'OFFER-1' && row.kind === 'location');
    expect(randa?.location).toMatchObject({ place: 'tasch', how: 'near' });
    expect(randa?.location?.distanceKm).toBeCloseTo(distanceKm(TASCH, RANDA), 0);
    const scores = index.match(textQueryOf([skiTerm], undefined, [tasch]));
    for (const ordinal of [0, 1]) {
      const counted = rows.filter((row) => row.id === `OFFER-${ordinal}` && row.best && row.matches);
      const sum = counted.reduce((total, row) => total + (row.contribution ?? 0), 0);
      expect(sum).toBeCloseTo(scores.scoreOf(ordinal)!, 6);
    }
    // Lausanne's ski offer is not selected: its place is elsewhere and the place is outside the catalogue
    expect(rows.filter((row) => row.id === 'OFFER-2').every((row) => !row.matches)).toBe(true);
  });
});
