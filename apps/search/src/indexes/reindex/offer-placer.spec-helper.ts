import { Gazetteer, loadGazetteer } from '../../query/gazetteer/gazetteer';
import type { GeoPoint } from '../../query/gazetteer/gazetteer';
import { loadPlacePrepositions } from '../../query/gazetteer/place-finder';
import { loadDepartureWords, OfferPlacer } from './offer-placer';

/** The committed gazetteer with points given to a few places (the test's own, not GeoNames'). */
export const TEST_POINTS: Record<string, GeoPoint> = {
  zermatt: { lat: 46.02, lon: 7.75 },
  mattertal: { lat: 46.1, lon: 7.8 },
  geneva: { lat: 46.2, lon: 6.15 },
  basel: { lat: 47.56, lon: 7.59 },
  zurich: { lat: 47.37, lon: 8.54 },
  nice: { lat: 43.7, lon: 7.27 },
  chamonix: { lat: 45.92, lon: 6.87 },
  ch: { lat: 46.8, lon: 8.2 },
};

/** A placer of the committed data whose places have `points`, under `version`. */
export function testPlacer(points = TEST_POINTS, version = 'test-1'): OfferPlacer {
  const gazetteer = loadGazetteer();
  return new OfferPlacer(
    new Gazetteer(
      gazetteer.places.map((place) => (points[place.id] ? { ...place, point: points[place.id] } : place)),
    ),
    loadPlacePrepositions(),
    loadDepartureWords(),
    version,
  );
}
