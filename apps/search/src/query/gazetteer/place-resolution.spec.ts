import { AnalysisWork, MAX_DISTANCE_PASSES, MAX_SEARCH_PLACES } from '../analysis/analysis-budget';
import { loadGazetteer } from './gazetteer';
import { loadPlacePrepositions, PlaceFinder } from './place-finder';
import { PLACE_RADIUS_KM, resolvePlaces } from './place-resolution';

describe('resolvePlaces (D-88b)', () => {
  const gazetteer = loadGazetteer();
  const finder = new PlaceFinder(gazetteer, loadPlacePrepositions());
  const resolve = (text: string, work = new AnalysisWork()) => {
    const words = text.split(' ');
    return resolvePlaces(gazetteer, finder.mentions(words), words, work);
  };

  it('resolves a place to its id, kind, position, regions (not its country) and radius by kind', () => {
    const [zermatt] = resolve('ski zermatt');
    expect(zermatt).toMatchObject({ token: 'zermatt', position: 2, id: 'zermatt', kind: 'city' });
    expect(zermatt.regions).toEqual(['mattertal', 'upper_valais', 'canton_valais']);
    expect(zermatt.radiusKm).toBe(zermatt.point ? PLACE_RADIUS_KM.city : 0);
    expect(resolve('safari kenya')[0]).toMatchObject({ id: 'ke', regions: [], radiusKm: 0 });
  });

  it('counts each place and distance pass on the search, and stops at the caps', () => {
    const work = new AnalysisWork();
    const words = Array.from({ length: MAX_SEARCH_PLACES + 2 }, () => 'zermatt').join(' ');
    expect(resolve(words, work)).toHaveLength(Math.min(MAX_SEARCH_PLACES, MAX_DISTANCE_PASSES));
    expect(work.placeLookups).toBeLessThanOrEqual(MAX_SEARCH_PLACES);
    expect(work.distancePasses).toBeLessThanOrEqual(MAX_DISTANCE_PASSES);
    expect(work.refusals).toBeGreaterThan(0);
  });
});
