import type { MapPoint, ResolvedPlace } from '../../query/analysis/analysed-query';
import type { QueryWord } from '../../query/analysis/query-words';
import { MAJOR_CONCEPT, PLACE_CONCEPT } from '../../query/analysis/similarity';
import { distanceKm } from './offer-places';
import type { OfferPlaces } from './offer-places';

/**
 * Which offers cover a place a search names, and how much (docs/decisions.md D-88b, "Coverage by
 * distance"): the text side counts the place's concept as covered by `share` × PLACE_CONCEPT.
 *
 * - *Inside* (share 1): the offer's places (OfferPlaces: the place itself and every place
 *   containing it) include the named place, or one of its members (a range's regions and towns).
 *   An offer in Zermatt covers Valais.
 * - *Near* (NEAR_SHARE_MAX at 0 km down to NEAR_SHARE_MIN at the radius): one of the offer's
 *   points lies within the place's radius (PLACE_RADIUS_KM, by kind) of its point.
 * - *In its region* (REGION_SHARE): the offer is inside a region containing the place (not a
 *   country): a village no offer names covers the offers of its valley or canton.
 *
 * Every share is above 1 − MAJOR_CONCEPT / PLACE_CONCEPT (0.75): an offer covering the place in
 * part and the activity (a major concept) always covers more than one inside the place without it,
 * so the activity decides within the place, and a place's weight never lifts an offer without the
 * activity above an offer nearby with it (text-index.spec.ts tests both).
 */
/** The least share an offer covering a place in part may have (see above): 0.75. */
export const LEAST_PLACE_SHARE = 1 - MAJOR_CONCEPT / PLACE_CONCEPT;
export const NEAR_SHARE_MAX = 1;
/** 0.85: a tenth above the least share. */
export const NEAR_SHARE_MIN = LEAST_PLACE_SHARE + 0.1;
/**
 * 0.5: a reduced but major share (8 of 16, twice an activity's weight): the offers of the region
 * containing a place rank after those in it or near it, even with the activity (an offer in
 * Zermatt without skiing answers "ski Zermatt" better than a ski week at the other end of Valais,
 * as the judged sets grade it), and before the activity elsewhere. At 0.8 (above the activity's
 * threshold) the generated set's destination_theme fell (0.994 → 0.992; D-88b).
 */
export const REGION_SHARE = 0.5;

/** How an offer covers a place (explain's `covered_by`). */
export const PLACE_HOW = { inside: 1, near: 2, region: 3 } as const;
export type PlaceHow = keyof typeof PLACE_HOW;
const HOW_NAMES: Record<number, PlaceHow> = { 1: 'inside', 2: 'near', 3: 'region' };

/** A place a search names as the text side covers it by where offers are (TextQuery.places). */
export interface PlaceQuery {
  /** The query word the place counts for. */
  word: QueryWord;
  /** The concept weight it has (PLACE_CONCEPT). */
  conceptWeight: number;
  /** The place, as resolved. */
  place: ResolvedPlace;
}

/** The offers covering one place, by ascending ordinal. */
export interface PlaceHits {
  readonly ordinals: Int32Array;
  /** The share of the place's concept each covers (see above). */
  readonly shares: Float64Array;
  /** How each covers it (PLACE_HOW). */
  readonly how: Uint8Array;
  /** The distance from the place's point to the offer's nearest point (km; NaN: none known). */
  readonly distances: Float32Array;
  /** Whether an offer lies inside the place (else the place holds no offer of the catalogue). */
  readonly holdsOffers: boolean;
}

/** The share of an offer `km` from a place of radius `radiusKm` (≤ the radius). */
export function nearShareOf(km: number, radiusKm: number): number {
  return NEAR_SHARE_MAX - ((NEAR_SHARE_MAX - NEAR_SHARE_MIN) * km) / radiusKm;
}

/** How an offer covers a place, by its PLACE_HOW code. */
export function placeHowOf(code: number): PlaceHow | null {
  return HOW_NAMES[code] ?? null;
}

/**
 * The offers covering `place` (every offer: filters apply later), in one pass over the offers'
 * places and points. `placeOrdinals` maps a place id to its ordinal in `offers.placeIds`.
 */
export function placeHitsOf(
  offers: OfferPlaces,
  placeOrdinals: ReadonlyMap<string, number>,
  place: ResolvedPlace,
): PlaceHits {
  const inside = new Set<number>();
  for (const id of [place.id, ...place.members]) {
    const ordinal = placeOrdinals.get(id);
    if (ordinal !== undefined) inside.add(ordinal);
  }
  const regions = new Set<number>();
  for (const id of place.regions) {
    const ordinal = placeOrdinals.get(id);
    if (ordinal !== undefined) regions.add(ordinal);
  }
  const point = place.radiusKm > 0 ? place.point : undefined;
  const box = point ? boxOf(point, place.radiusKm) : undefined;
  const count = offers.placeStart.length - 1;
  const ordinals: number[] = [];
  const shares: number[] = [];
  const how: number[] = [];
  const distances: number[] = [];
  let holdsOffers = false;
  for (let o = 0; o < count; o++) {
    let best = 0;
    let bestHow = 0;
    for (let j = offers.placeStart[o]; j < offers.placeStart[o + 1]; j++) {
      const p = offers.places[j];
      if (inside.has(p)) {
        best = 1;
        bestHow = PLACE_HOW.inside;
        break;
      }
      if (regions.has(p) && REGION_SHARE > best) {
        best = REGION_SHARE;
        bestHow = PLACE_HOW.region;
      }
    }
    let nearest = NaN;
    if (point && box) {
      for (let i = offers.pointStart[o]; i < offers.pointStart[o + 1]; i++) {
        const lat = offers.lat[i];
        const lon = offers.lon[i];
        if (lat < box.south || lat > box.north || !inLongitude(lon, box)) continue;
        const km = distanceKm(point, { lat, lon });
        if (!(km >= nearest)) nearest = km;
      }
      if (nearest <= place.radiusKm) {
        const share = nearShareOf(nearest, place.radiusKm);
        if (share > best) {
          best = share;
          bestHow = PLACE_HOW.near;
        }
      }
    }
    if (best === 0) continue;
    if (bestHow === PLACE_HOW.inside) holdsOffers = true;
    ordinals.push(o);
    shares.push(best);
    how.push(bestHow);
    distances.push(nearest);
  }
  return {
    ordinals: Int32Array.from(ordinals),
    shares: Float64Array.from(shares),
    how: Uint8Array.from(how),
    distances: Float32Array.from(distances),
    holdsOffers,
  };
}

interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
  /** The box spans every longitude (near a pole). */
  everyLongitude: boolean;
}

const KM_PER_DEGREE = 111.19;

/** A latitude/longitude box holding every point within `km` of `point` (a cheap test before haversine). */
function boxOf(point: MapPoint, km: number): Box {
  const dLat = km / KM_PER_DEGREE;
  const cos = Math.cos((point.lat * Math.PI) / 180);
  const dLon = cos > 1e-6 ? km / (KM_PER_DEGREE * cos) : 360;
  return {
    south: point.lat - dLat,
    north: point.lat + dLat,
    west: point.lon - dLon,
    east: point.lon + dLon,
    everyLongitude: dLon >= 180 || Math.abs(point.lat) + dLat >= 90,
  };
}

function inLongitude(lon: number, box: Box): boolean {
  if (box.everyLongitude) return true;
  for (const shift of [0, 360, -360]) {
    const at = lon + shift;
    if (at >= box.west && at <= box.east) return true;
  }
  return false;
}

/** A place a search names, with the offers covering it (explain mode). */
export interface RecordedPlace {
  place: ResolvedPlace;
  holdsOffers: boolean;
  hits: PlaceHits;
}

/** What the explain mode records of the places beside ScoreRecorder (analysis/similarity.ts). */
export interface PlaceRecorder {
  /**
   * The places the search names as resolved against where the offers are (D-88b), in the query's
   * order (`places[p]`), and whether every one holds no offer of the catalogue.
   */
  places(places: readonly RecordedPlace[], outside: boolean): void;
  /** Offer `ordinal` covers place `place` by where it is: the part it scores, its hit's index. */
  placePart(ordinal: number, place: number, part: number, hit: number): void;
}
