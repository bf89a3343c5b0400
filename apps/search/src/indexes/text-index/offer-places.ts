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

/** The great-circle distance between two points in kilometres (haversine; query/gazetteer/geo.ts). */
export { distanceKm } from '../../query/gazetteer/geo';
