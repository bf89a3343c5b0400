import type { AnalysisWork } from '../analysis/analysis-budget';
import type { ResolvedPlace } from '../analysis/analysed-query';
import type { Gazetteer, Place, PlaceKind } from './gazetteer';
import type { PlaceMention } from './place-finder';

/**
 * How far from a place's point an offer covers it (docs/decisions.md D-88b), by the place's kind:
 * a town, a resort, a peak or a pass is small (an offer in the next village covers it), a lake, a
 * valley or an island larger, a canton or a region larger still (an offer just over its border).
 * A country, a river (a line, not a point), and the wide places resolved by their members (a
 * range, a sea, a coast, a peninsula, an archipelago) are covered by containment only: 0.
 * Starting values, picked by the sweep recorded in D-88b.
 */
export const PLACE_RADIUS_KM: Readonly<Record<PlaceKind, number>> = {
  country: 0,
  canton: 40,
  region: 40,
  island: 25,
  archipelago: 0,
  peninsula: 0,
  coast: 0,
  valley: 25,
  lake: 25,
  river: 0,
  sea: 0,
  fjord: 25,
  range: 0,
  mountain: 15,
  glacier: 15,
  waterfall: 15,
  pass: 15,
  city: 15,
};

/** The kinds resolved by their member regions and towns, not their point nor whole countries. */
export const MEMBER_KINDS: ReadonlySet<PlaceKind> = new Set<PlaceKind>([
  'range',
  'sea',
  'coast',
  'peninsula',
  'archipelago',
]);

/** Where a place's members come from (the membership data, when a loader gives it): ids. */
export type MembersOf = (place: Place) => readonly string[];

/**
 * The places the search's `mentions` name, resolved (D-88b): per place a name leads to, its point
 * and radius, the regions containing it (not the countries: a town's country does not cover it)
 * and, for a range, a sea, a coast …, its members. Each is counted on `work` (MAX_SEARCH_PLACES,
 * MAX_DISTANCE_PASSES): past the caps a place covers offers by its names only.
 */
export function resolvePlaces(
  gazetteer: Gazetteer,
  mentions: readonly PlaceMention[],
  words: readonly string[],
  work: AnalysisWork,
  membersOf: MembersOf = () => [],
): ResolvedPlace[] {
  const resolved: ResolvedPlace[] = [];
  for (const mention of mentions) {
    const position = positionOf(mention, words);
    if (position === 0) continue;
    for (const { place } of mention.matches) {
      const radiusKm = place.point ? PLACE_RADIUS_KM[place.kind] : 0;
      if (!work.spendPlace(radiusKm > 0)) return resolved;
      const regions = gazetteer
        .ancestors(place.id)
        .filter((ancestor) => ancestor.kind !== 'country')
        .map((ancestor) => ancestor.id);
      resolved.push({
        token: mention.token,
        position,
        id: place.id,
        kind: place.kind,
        name: mention.name,
        ...(place.point ? { point: { lat: place.point.lat, lon: place.point.lon } } : {}),
        radiusKm,
        // a wide place (a range, a sea) is not "the region containing" a town: it covers by members
        regions: MEMBER_KINDS.has(place.kind) ? [] : regions,
        members: MEMBER_KINDS.has(place.kind) ? [...membersOf(place)] : [],
      });
    }
  }
  return resolved;
}

/**
 * The 1-based position of a mention's token among the search's words: within its span (the last
 * of equal words, as PlaceMention.token is chosen), or, for a misspelt name (start −1), the first
 * word typed so; 0 when not found.
 */
function positionOf(mention: PlaceMention, words: readonly string[]): number {
  if (mention.start >= 0) {
    for (let i = mention.start + mention.length - 1; i >= mention.start; i--) {
      if (words[i] === mention.token) return i + 1;
    }
    return 0;
  }
  return words.indexOf(mention.token) + 1;
}
