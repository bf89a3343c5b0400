import type { GeoPoint } from '../../query/gazetteer/gazetteer';

/**
 * Where each offer of a generation is (issue 62): the points on the map and the gazetteer places its
 * destination and its text put it in, by offer ordinal (TextIndex). Offer `o`'s points are
 * `lat[i], lon[i]` for `pointStart[o] <= i < pointStart[o + 1]`; its places (ordinals into
 * `placeIds`, the place itself and every place containing it) are `places[j]` for
 * `placeStart[o] <= j < placeStart[o + 1]`. Written by the reindex, read with the posting blocks.
 */
export interface OfferPlaces {
  readonly pointStart: Uint32Array;
  readonly lat: Float32Array;
  readonly lon: Float32Array;
  readonly placeStart: Uint32Array;
  readonly places: Uint32Array;
  /** The gazetteer ids the `places` ordinals stand for. */
  readonly placeIds: readonly string[];
}

const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

/** The great-circle distance between two points in kilometres (haversine). */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = (b.lat - a.lat) * RADIANS;
  const dLon = (b.lon - a.lon) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RADIANS) * Math.cos(b.lat * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
