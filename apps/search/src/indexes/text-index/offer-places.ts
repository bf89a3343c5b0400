
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

/** No offer placed: a generation written before AddOfferPlaces, or whose places are not its own. */
export function emptyOfferPlaces(offers: number): OfferPlaces {
  return {
    pointStart: new Uint32Array(offers + 1),
    lat: new Float32Array(0),
    lon: new Float32Array(0),
    placeStart: new Uint32Array(offers + 1),
    places: new Uint32Array(0),
    placeIds: [],
  };
}

/**
 * Every offer's places as three values (migration AddOfferPlaces; docs/decisions.md D-88): the
 * gazetteer ids held, in byte order (their ordinals), and the (offer ordinal, place ordinal)
 * pairs in that order as two byte strings of big-endian 4-byte integers (`int4send`), aggregated
 * from `search_offer_places` as the posting blocks are.
 */
export const OFFER_PLACES_SQL = `WITH o AS (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ordinal FROM travel_offers),
  pairs AS (SELECT o.ordinal, u.place COLLATE "C" AS place
    FROM search_offer_places s JOIN o ON o.id = s.offer_id CROSS JOIN LATERAL unnest(s.places) u(place)),
  ids AS (SELECT place, (row_number() OVER (ORDER BY place) - 1)::int AS n FROM (SELECT DISTINCT place FROM pairs) d)
SELECT (SELECT coalesce(array_agg(place ORDER BY n), '{}') FROM ids) AS place_ids,
  string_agg(int4send(pairs.ordinal), ''::bytea ORDER BY pairs.ordinal, ids.n) AS offers,
  string_agg(int4send(ids.n), ''::bytea ORDER BY pairs.ordinal, ids.n) AS places
FROM pairs JOIN ids ON ids.place = pairs.place`;

/**
 * Every offer's points: (offer ordinal, point count) pairs as big-endian 4-byte integers, and the
 * points, latitude then longitude as big-endian 4-byte floats, in offer-ordinal order.
 */
export const OFFER_POINTS_SQL = `SELECT string_agg(int4send(o.ordinal) || int4send(length(s.points) / 8), ''::bytea ORDER BY o.ordinal) AS counts,
  string_agg(s.points, ''::bytea ORDER BY o.ordinal) AS points
FROM search_offer_places s
JOIN (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ordinal FROM travel_offers) o ON o.id = s.offer_id
WHERE length(s.points) > 0`;

/** What OFFER_PLACES_SQL and OFFER_POINTS_SQL answer (null byte strings: no row). */
export interface OfferPlacesRows {
  placeIds: string[];
  placeOffers: Buffer | null;
  places: Buffer | null;
  pointCounts: Buffer | null;
  points: Buffer | null;
}

/** Big-endian 4-byte values as the platform's (little-endian) typed array; consumes the buffer. */
function int32sOf(bytes: Buffer | null): Uint32Array {
  if (!bytes || bytes.length === 0) return new Uint32Array(0);
  if (bytes.length % 4 !== 0) throw new Error(`offer places: ${bytes.length} bytes is not 4-byte values`);
  const values = new Uint32Array(bytes.length / 4);
  new Uint8Array(values.buffer).set(bytes.swap32());
  return values;
}

/**
 * The offers' places of a generation of `offers` offers from its rows (OFFER_PLACES_SQL,
 * OFFER_POINTS_SQL); refuses rows that are not ascending offer ordinals below `offers` or name a
 * place ordinal past `placeIds`. Consumes the buffers.
 */
export function offerPlacesOf(rows: OfferPlacesRows, offers: number): OfferPlaces {
  const placeOffers = int32sOf(rows.placeOffers);
  const places = int32sOf(rows.places);
  if (places.length !== placeOffers.length)
    throw new Error(`offer places: ${placeOffers.length} offers for ${places.length} places`);
  const placeStart = new Uint32Array(offers + 1);
  for (let i = 0; i < placeOffers.length; i++) {
    const offer = placeOffers[i];
    if (offer >= offers || (i > 0 && offer < placeOffers[i - 1]))
      throw new Error(`offer places: not ascending offer ordinals below ${offers}`);
    if (places[i] >= rows.placeIds.length)
      throw new Error(`offer places: place ordinal ${places[i]} unknown`);
    placeStart[offer + 1]++;
  }
  for (let o = 0; o < offers; o++) placeStart[o + 1] += placeStart[o];
  const counts = int32sOf(rows.pointCounts);
  const pointStart = new Uint32Array(offers + 1);
  for (let i = 0; i < counts.length; i += 2) {
    if (counts[i] >= offers || (i > 0 && counts[i] <= counts[i - 2]))
      throw new Error(`offer places: points not by ascending offer ordinals below ${offers}`);
    pointStart[counts[i] + 1] = counts[i + 1];
  }
  for (let o = 0; o < offers; o++) pointStart[o + 1] += pointStart[o];
  const coordinates = new Float32Array(int32sOf(rows.points).buffer);
  if (coordinates.length !== 2 * pointStart[offers])
    throw new Error(`offer places: ${coordinates.length / 2} points for ${pointStart[offers]} counted`);
  const lat = new Float32Array(pointStart[offers]);
  const lon = new Float32Array(pointStart[offers]);
  for (let i = 0; i < lat.length; i++) {
    lat[i] = coordinates[2 * i];
    lon[i] = coordinates[2 * i + 1];
  }
  return { pointStart, lat, lon, placeStart, places, placeIds: rows.placeIds };
}
