import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { TravelsQueryDto } from '../src/http/travels/dto/travels-query.dto';
import { toTravelsRequest } from '../src/http/travels/travels-request';
import { TextIndexService } from '../src/indexes/text-index/text-index.service';
import { loadJudgedQueries, readJudgedSet } from '../src/relevance/relevance';
import type { JudgedSet } from '../src/relevance/relevance';
import type { RankingRequest } from '../src/request/listing-request';
import { createTestApp, TestApp } from './test-app';

/**
 * The places every judged search resolves to, against a reviewed golden file
 * (place-resolutions.golden.json): for each search of both judged sets (the generated set,
 * src/relevance/judged-queries.json, analysed against its catalogue `generated:2000`; the
 * multilingual set, judged-multilingual.json, against multilingual-catalogue.ndjson), each place
 * name the analysis finds (QueryExpansion.namedPlaces: the gazetteer's mentions, a misspelt name
 * corrected among them) with the ids of the places it leads to, as `name → id,id`.
 *
 * The guard that ordinary words stay words as the gazetteer grows (issue 62: about 100,000 towns of
 * GeoNames): a place resolved where none was ("ski" read as a town named Ski, "split" in "a split
 * stay", "nice" in "a nice walk") fails, and so does a place that disappears or resolves to other
 * places. A change meant (a new place the search does name, a better resolution): regenerate with
 *   UPDATE_GOLDEN=1 TEST_DATABASE_URL=… pnpm --filter search test:e2e test/place-resolutions.e2e-spec.ts
 * and review the golden file's diff line by line. Without UPDATE_GOLDEN the test never writes.
 *
 * One golden file for both databases: the resolutions use the folded words and the index's words,
 * not the Snowball stems that differ between PostgreSQL's servers and the embedded PGlite (both
 * were run when the file was written and agreed).
 */
const GOLDEN = join(__dirname, 'place-resolutions.golden.json');
const MULTILINGUAL = join(__dirname, '..', 'src', 'relevance', 'judged-multilingual.json');

interface Resolution {
  /** The judged set the search is from: `generated` or `multilingual`. */
  set: string;
  search: string;
  /** `name → id,id` per place name found, in the analysis's order; empty: no place. */
  places: string[];
}

const key = (resolution: Pick<Resolution, 'set' | 'search'>) => `${resolution.set}: ${resolution.search}`;

/** Each search of `judged` once, in the set's order. */
const searchesOf = (judged: JudgedSet) => [...new Set(judged.queries.map((query) => query.query))];

/** The service indexed on the judged set's catalogue (a generated source or an NDJSON file) at start. */
async function appOn(judged: JudgedSet): Promise<TestApp> {
  const t = await createTestApp({ env: { CATALOGUE_SOURCE: judged.catalogue } });
  await t.reindex.idle();
  const { indexedOffers } = await t.app.get(TextIndexService).loaded();
  if (!indexedOffers) {
    await t.close();
    throw new Error(`${judged.catalogue} was not indexed at start`);
  }
  return t;
}

/** The places each search of `judged` resolves to, as GET /travels reads it. */
async function resolutionsOf(set: string, judged: JudgedSet): Promise<Resolution[]> {
  const t = await appOn(judged);
  try {
    const base = toTravelsRequest(plainToInstance(TravelsQueryDto, { search: 'ski' }), t.config);
    if (base.branch !== 'search') throw new Error('a search was expected');
    const resolutions: Resolution[] = [];
    for (const search of searchesOf(judged)) {
      const request: RankingRequest = { ...base, search };
      const { expansion } = await t.analysed(request);
      const places = (expansion.namedPlaces ?? []).map((place) => `${place.name} → ${place.ids.join(',')}`);
      resolutions.push({ set, search, places });
    }
    return resolutions;
  } finally {
    await t.close();
  }
}

describe('the places every judged search resolves to (golden: test/place-resolutions.golden.json)', () => {
  const current: Resolution[] = [];

  beforeAll(async () => {
    current.push(...(await resolutionsOf('generated', loadJudgedQueries())));
    current.push(...(await resolutionsOf('multilingual', readJudgedSet(MULTILINGUAL))));
  }, 600_000);

  it('reads places in the searches that name one, and none in the others', () => {
    // the file's own sense: the set's destinations are places, its plain activities are not
    const placesOf = (search: string) => current.find((entry) => entry.search === search)?.places;
    expect(placesOf('wallis')).toEqual([expect.stringMatching(/^wallis → /)]);
    expect(placesOf('ferien in zug')).toEqual([expect.stringMatching(/^zug → /)]);
    expect(placesOf('winter sports')).toEqual([]);
    expect(placesOf('wanderung in den bergen')).toEqual([]);
    expect(current.filter((entry) => entry.places.length).length).toBeGreaterThan(100);
  });

  it('resolves every judged search to the places of the golden file, no more and no fewer', () => {
    if (process.env.UPDATE_GOLDEN === '1') {
      writeFileSync(GOLDEN, `${JSON.stringify(current, null, 2)}\n`);
      return;
    }
    if (!existsSync(GOLDEN))
      throw new Error(`${GOLDEN} is missing: run this test with UPDATE_GOLDEN=1 to write it`);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Resolution[];
    const goldenPlaces = new Map(golden.map((entry) => [key(entry), entry.places]));
    const currentPlaces = new Map(current.map((entry) => [key(entry), entry.places]));
    // a place resolved where the golden file has none, or another than it has
    const appeared = current.flatMap((entry) =>
      entry.places
        .filter((place) => !(goldenPlaces.get(key(entry)) ?? []).includes(place))
        .map((place) => `${key(entry)}: ${place}`),
    );
    // a place the golden file has that the search no longer resolves to
    const disappeared = golden.flatMap((entry) =>
      entry.places
        .filter((place) => !(currentPlaces.get(key(entry)) ?? []).includes(place))
        .map((place) => `${key(entry)}: ${place}`),
    );
    // a difference meant: UPDATE_GOLDEN=1, then review the golden file's diff
    expect({ appeared, disappeared }).toEqual({ appeared: [], disappeared: [] });
    // every judged search is in the file, in order (a search added to a set: regenerate)
    expect(golden.map(key)).toEqual(current.map(key));
  });
});
