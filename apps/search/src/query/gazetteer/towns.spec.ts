import { readFileSync } from 'node:fs';
import { distanceKm } from '../../indexes/text-index/offer-places';
import { foldName, loadGazetteer, parsePlacePoints, PLACE_POINTS_PATH } from './gazetteer';
import { OrdinaryWords } from './ordinary-words';
import {
  centroid,
  loadTowns,
  parsePlaceMatches,
  parseRegions,
  parseTowns,
  PLACE_MATCHES_PATH,
  REGION_HEADER,
  TOWN_HEADER,
  Towns,
  type Town,
} from './towns';

// the committed data, read once (about 1 s: GAZETTEER.md, "Memory and load time")
const towns = loadTowns();
const gazetteer = loadGazetteer();
let all: Town[] | undefined;
/** Every town, made once. */
const everyTown = () => (all ??= Array.from({ length: towns.size }, (_, i) => towns.town(i)));

describe('the towns (towns.tsv, regions.tsv)', () => {
  it('holds the covered countries’ towns and their regions', () => {
    expect(towns.size).toBeGreaterThan(50_000);
    expect(towns.regions().length).toBeGreaterThan(1_000);
    const countries = new Set(everyTown().map((town) => town.country));
    for (const code of ['CH', 'FR', 'IT', 'DE', 'AT', 'ES', 'GB', 'HR', 'GR', 'NO', 'TH', 'MX']) {
      expect(countries).toContain(code);
    }
  });

  it('finds a Valais village no hand-written place names, with its region and the canton it is', () => {
    const [grachen, ...others] = towns.lookup('Grächen');
    expect(others).toEqual([]);
    expect(grachen).toMatchObject({ name: 'Grächen', country: 'CH', admin1: 'VS', regionId: 'adm1_ch_vs' });
    expect(grachen.kinds).toContain('mountain');
    expect(towns.lookupFolded('grachen')).toEqual([grachen]);
    const region = towns.regionOf(grachen)!;
    expect(region).toMatchObject({ id: 'adm1_ch_vs', place: 'canton_valais' });
    expect(region.names).toMatchObject({
      de: expect.stringContaining('Wallis'),
      it: expect.stringContaining('Vallese'),
    });
    expect(towns.townsIn('adm1_ch_vs')).toContain(grachen.index);
  });

  it('finds exact folded names only: a misspelt town is no town', () => {
    expect(towns.lookupFolded('graechen')).toEqual([]);
    expect(towns.lookupFolded('grachn')).toEqual([]);
    expect(towns.lookupFolded('saas grund').map((town) => town.name)).toEqual(['Saas-Grund']);
  });

  it('never holds a town a hand-written place is (the hand-written place wins and has its point)', () => {
    const points = parsePlacePoints(readFileSync(PLACE_POINTS_PATH, 'utf8'), PLACE_POINTS_PATH);
    const placed = new Set(
      points.filter((p) => p.source.startsWith('geonames:')).map((p) => Number(p.source.slice(9))),
    );
    expect(placed.size).toBeGreaterThan(200);
    expect(everyTown().filter((town) => placed.has(town.geonameId))).toEqual([]);
    expect(towns.lookup('Zermatt')).toEqual([]);
    expect(gazetteer.place('zermatt')!.point!.lat).toBeCloseTo(46.02, 2);
    expect(gazetteer.place('zermatt')!.point!.lon).toBeCloseTo(7.749, 2);
  });

  it('gives each hand-written canton its region and each region point a point inside its towns', () => {
    for (const region of towns.regions()) {
      if (region.place) expect(gazetteer.place(region.place)?.kind).not.toBe('country');
    }
    const valais = gazetteer.place('canton_valais')!.point!;
    expect(distanceKm(valais, towns.region('adm1_ch_vs')!.point)).toBeLessThan(0.1);
    // the Valais lies between Lake Geneva and the Furka
    expect(valais.lat).toBeGreaterThan(45.9);
    expect(valais.lat).toBeLessThan(46.5);
    expect(valais.lon).toBeGreaterThan(6.8);
    expect(valais.lon).toBeLessThan(8.4);
  });
});

describe('ordinary words stay words', () => {
  let words: OrdinaryWords;
  beforeAll(async () => {
    words = await OrdinaryWords.load();
  }, 60_000);

  it.each([
    ['Ski', ['en', 'fr']],
    ['Split', ['en']],
    ['Bath', ['en']],
    ['Nice', ['en']],
    ['Sale', ['fr', 'en', 'it']],
  ])('reads %s as a word of %j', (name, languages) => {
    expect(words.languagesOf(foldName(name))).toEqual(expect.arrayContaining(languages));
  });

  it('reads a town’s own name as no word (compounds and the dictionary’s names are not words)', () => {
    for (const name of ['zermatt', 'grachen', 'ringgenberg', 'unterseen', 'genf', 'chur', 'basel', 'davos']) {
      expect([name, words.languagesOf(name)]).toEqual([name, []]);
    }
    expect(words.languagesOf('zug')).toEqual(['de']);
    expect(words.languagesOf('saas grund')).toEqual([]);
  });

  it('marks every town and hand-written place named Ski, Split, Bath, Nice or Sale as the word', () => {
    const marked = (name: string) => [
      ...towns.lookupFolded(name).map((town: Town) => town.ambiguous),
      ...gazetteer.lookupFolded(name).map((match) => match.commonWordIn),
    ];
    expect(towns.lookupFolded('ski').length).toBeGreaterThan(0);
    expect(towns.lookupFolded('sale').length).toBeGreaterThan(0);
    for (const name of ['ski', 'split', 'bath', 'nice', 'sale']) {
      const marks = marked(name);
      expect(marks.length).toBeGreaterThan(0);
      for (const languages of marks)
        expect([name, languages]).toEqual([name, expect.arrayContaining(['en'])]);
    }
  });

  it('marks the towns as the generator checks them, for a sample of the file', () => {
    for (let i = 0; i < towns.size; i += 997) {
      const town = towns.town(i);
      expect([town.name, town.ambiguous]).toEqual([town.name, words.languagesOf(town.folded[0])]);
    }
  });
});

describe('near', () => {
  const zermatt = gazetteer.place('zermatt')!.point!;
  /** Every town within the radius, by a pass over all of them: what the grid must give. */
  const scan = (point: { lat: number; lon: number }, radiusKm: number) =>
    everyTown()
      .map((town) => ({ town, km: distanceKm(point, town.point) }))
      .filter(({ km }) => km <= radiusKm)
      .sort((a, b) => a.km - b.km || a.town.index - b.town.index)
      .map(({ town }) => town.name);

  it('finds the towns around Zermatt, nearest first, across the border too', () => {
    const around = towns.nearby(zermatt, 25);
    const names = around.map(({ town }) => town.name);
    // Valtournenche (Cervinia's commune) lies in Italy, over the Theodul Pass
    expect(names).toEqual(
      expect.arrayContaining(['Sankt Niklaus', 'Saas-Grund', 'Grächen', 'Valtournenche']),
    );
    expect(names).not.toContain('Sion');
    around.forEach(({ town, distanceKm: km }, i) => {
      expect(km).toBeLessThanOrEqual(25);
      expect(km).toBeCloseTo(distanceKm(zermatt, town.point), 6);
      if (i > 0) expect(km).toBeGreaterThanOrEqual(around[i - 1].distanceKm);
    });
    expect(towns.near(zermatt, 25).map((town) => town.name)).toEqual(names);
    expect(towns.near(zermatt, 25, 2)).toHaveLength(2);
  });

  it.each([
    ['Zermatt', 46.02, 7.7486, 20],
    ['a cell border', 46.0, 7.5, 35],
    ['the antimeridian', -16.5, 179.9, 150],
    ['the north', 69.65, 18.96, 80],
    ['the sea', 43.0, 5.0, 5],
  ])('gives what a pass over every town gives, around %s', (_, lat, lon, radius) => {
    expect(towns.near({ lat, lon }, radius).map((town) => town.name)).toEqual(scan({ lat, lon }, radius));
  });

  it('gives nothing for a point off the map or a negative radius', () => {
    expect(towns.near({ lat: 91, lon: 0 }, 10)).toEqual([]);
    expect(towns.near(zermatt, -1)).toEqual([]);
  });
});

describe('the files', () => {
  const header = TOWN_HEADER.join('\t');
  const line = (cells: Partial<Record<string, string>> = {}) =>
    TOWN_HEADER.map(
      (column) =>
        cells[column] ??
        {
          geonames: '1',
          name: 'A',
          country: 'CH',
          admin1: 'VS',
          feature: 'PPL',
          population: '1000',
          elevation: '0',
          lat: '46',
          lon: '7',
        }[column] ??
        '',
    ).join('\t');

  it('refuses a malformed town line, naming it', () => {
    expect(() => parseTowns(`${header}\n${line({ lat: '95' })}`, 't')).toThrow(
      't, line 2: "95 7" is no point',
    );
    expect(() => parseTowns(`${header}\n${line()}\n${line()}`, 't')).toThrow(
      'line 3: malformed or repeated GeoNames id "1"',
    );
    expect(() => parseTowns(`${header}\n${line({ ambiguous: 'en,xx' })}`, 't')).toThrow(
      'malformed languages',
    );
    expect(() => parseTowns(`${header}\n${line({ population: '1e3' })}`, 't')).toThrow('must be integers');
    expect(() => parseTowns(`id\n`, 't')).toThrow('t, line 1: the header must be');
  });

  it('refuses a malformed region line and a malformed reviewed match', () => {
    const region = [
      'adm1_ch_vs',
      'CH',
      'VS',
      '',
      'Valais',
      'Wallis',
      'Valais',
      'Vallese',
      '46',
      '7',
      '10',
      'x:en',
    ];
    expect(() => parseRegions(`${REGION_HEADER.join('\t')}\n${region.join('\t')}`, 'r')).not.toThrow();
    region[11] = 'x';
    expect(() => parseRegions(`${REGION_HEADER.join('\t')}\n${region.join('\t')}`, 'r')).toThrow(
      'malformed ambiguity',
    );
    expect(() => parsePlaceMatches('id\tmatch\treason\nzermatt\tgeonames:x\tbecause', 'm')).toThrow(
      'malformed match',
    );
    expect(() => parsePlaceMatches('id\tmatch\treason\nzermatt\tnone\t', 'm')).toThrow('has no reason');
    expect(() =>
      parsePlaceMatches(readFileSync(PLACE_MATCHES_PATH, 'utf8'), PLACE_MATCHES_PATH),
    ).not.toThrow();
  });

  it('builds an index from rows, a region’s towns and the centroid across the antimeridian', () => {
    const index = new Towns(
      parseTowns(`${header}\n${line()}\n${line({ geonames: '2', name: 'Bé', lat: '46.1' })}`, 't'),
      parseRegions(`${REGION_HEADER.join('\t')}\nadm1_ch_vs\tCH\tVS\t\tV\tW\tV\tV\t46\t7\t2000\t`, 'r'),
    );
    expect(index.lookup('BE').map((town) => town.geonameId)).toEqual([2]);
    expect(index.townsIn('adm1_ch_vs')).toEqual(Uint32Array.from([0, 1]));
    expect(
      centroid([
        { lat: 0, lon: 179 },
        { lat: 0, lon: -179 },
      ]).lon,
    ).toBeCloseTo(180, 6);
  });
});
