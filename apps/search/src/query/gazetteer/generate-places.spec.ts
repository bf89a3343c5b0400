import { readFileSync } from 'node:fs';
import type { Language } from '../analysis/languages';
import { foldName, PLACE_POINTS_PATH } from './gazetteer';
import { renderPlaces } from './generate-places';
import { parseRegions, parseTowns, PLACE_MEMBERS_PATH, REGIONS_PATH, TOWNS_PATH } from './towns';

/**
 * The generated files are what generate-places.ts writes from the pinned packages and the reviewed
 * files: everything but the dictionaries' answers is generated again here (those take 1.5 min of
 * CPU; towns.spec.ts checks a sample of them against Hunspell), so an edit by hand, a changed
 * places.tsv, place-matches.tsv or place-regions.tsv, or an upgraded package fails until
 * `pnpm --filter search gazetteer:places` is run.
 */
describe('generate-places', () => {
  it('writes the committed towns, regions, points and membership', async () => {
    const committed = (path: string) => readFileSync(path, 'utf8');
    // the dictionaries' answers as the committed files give them, by folded name
    const byFolded = new Map<string, Language[]>();
    for (const town of parseTowns(committed(TOWNS_PATH), TOWNS_PATH))
      byFolded.set(foldName(town.name), town.ambiguous);
    for (const region of parseRegions(committed(REGIONS_PATH), REGIONS_PATH)) {
      for (const [name, languages] of Object.entries(region.ambiguous)) byFolded.set(name, languages);
    }
    const generated = await renderPlaces(undefined, { languagesOf: (folded) => byFolded.get(folded) ?? [] });
    expect(generated.towns).toBe(committed(TOWNS_PATH));
    expect(generated.regions).toBe(committed(REGIONS_PATH));
    expect(generated.points).toBe(committed(PLACE_POINTS_PATH));
    expect(generated.members).toBe(committed(PLACE_MEMBERS_PATH));
  }, 120_000);
});
