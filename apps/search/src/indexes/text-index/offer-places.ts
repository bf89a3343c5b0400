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

/**
 * The id a GeoNames town (query/gazetteer/towns.ts) has among an offer's places (`placeIds`):
 * `town_` and its GeoNames id (`town_2657928`, Zermatt's, when it is not a hand-written place).
 */
export function townPlaceId(town: { geonameId: number }): string {
  return `town_${town.geonameId}`;
}

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
 * Every placed offer's ordinal, places and points in one row (migration AddOfferPlaces;
 * docs/decisions.md D-88), aggregated in ordinal order as the posting blocks are: the ordinals and
 * each offer's point count as big-endian 4-byte integers (`int4send`), the points as big-endian
 * 4-byte floats (latitude, longitude), and the places' ids as one text (an offer's ids separated
 * by a space, offers by a comma: ids never hold either), mapped to ordinals in memory (no
 * unnest, join or sort on the ids in SQL).
 */
export const OFFER_PLACES_SQL = `SELECT string_agg(int4send(o.ordinal), ''::bytea ORDER BY o.ordinal) AS offers,
  string_agg(int4send(length(s.points) / 8), ''::bytea ORDER BY o.ordinal) AS counts,
  string_agg(s.points, ''::bytea ORDER BY o.ordinal) AS points,
  string_agg(array_to_string(s.places, ' '), ',' ORDER BY o.ordinal) AS places
FROM search_offer_places s
JOIN (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS ordinal FROM travel_offers) o ON o.id = s.offer_id`;

/** What OFFER_PLACES_SQL answers (all null: no placed offer). */
export interface OfferPlacesRows {
  offers: Buffer | null;
  counts: Buffer | null;
  points: Buffer | null;
  places: string | null;
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
 * The offers' places of a generation of `offers` offers from OFFER_PLACES_SQL's row: `placeIds`
 * sorted (byte order), each offer's place ordinals ascending. Refuses a row that is not ascending
 * offer ordinals below `offers`, or whose counts, points or places do not match its offers.
 * Consumes the buffers.
 */
export function offerPlacesOf(rows: OfferPlacesRows, offers: number): OfferPlaces {
  const ordinals = int32sOf(rows.offers);
  const counts = int32sOf(rows.counts);
  const placed = ordinals.length === 0 ? [] : (rows.places ?? '').split(',');
  if (counts.length !== ordinals.length || placed.length !== ordinals.length)
    throw new Error(
      `offer places: ${ordinals.length} offers for ${counts.length} point counts and ${placed.length} place lists`,
    );
  const pointStart = new Uint32Array(offers + 1);
  const placeStart = new Uint32Array(offers + 1);
  const idsOf: string[][] = new Array<string[]>(ordinals.length);
  const distinct = new Set<string>();
  for (let i = 0; i < ordinals.length; i++) {
    const offer = ordinals[i];
    if (offer >= offers || (i > 0 && offer <= ordinals[i - 1]))
      throw new Error(`offer places: not ascending offer ordinals below ${offers}`);
    pointStart[offer + 1] = counts[i];
    const ids = placed[i] === '' ? [] : placed[i].split(' ');
    idsOf[i] = ids;
    placeStart[offer + 1] = ids.length;
    for (const id of ids) distinct.add(id);
  }
  for (let o = 0; o < offers; o++) {
    pointStart[o + 1] += pointStart[o];
    placeStart[o + 1] += placeStart[o];
  }
  const placeIds = [...distinct].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const ordinalOf = new Map(placeIds.map((id, ordinal) => [id, ordinal]));
  const places = new Uint32Array(placeStart[offers]);
  for (let i = 0; i < ordinals.length; i++) {
    const from = placeStart[ordinals[i]];
    idsOf[i].forEach((id, j) => (places[from + j] = ordinalOf.get(id)!));
    places.subarray(from, from + idsOf[i].length).sort();
  }
  const coordinates = new Float32Array(int32sOf(rows.points).buffer);
  if (coordinates.length !== 2 * pointStart[offers])
    throw new Error(`offer places: ${coordinates.length / 2} points for ${pointStart[offers]} counted`);
  const lat = new Float32Array(pointStart[offers]);
  const lon = new Float32Array(pointStart[offers]);
  for (let i = 0; i < lat.length; i++) {
    lat[i] = coordinates[2 * i];
    lon[i] = coordinates[2 * i + 1];
  }
  return { pointStart, lat, lon, placeStart, places, placeIds };
}
