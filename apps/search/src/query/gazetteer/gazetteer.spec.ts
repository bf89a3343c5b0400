import { readFileSync } from 'node:fs';
import { LANGUAGES } from '../analysis/languages';
import { loadTravelGlossary } from '../glossary/glossary';
import {
  buildGazetteer,
  COUNTRIES_PATH,
  foldName,
  GazetteerError,
  loadGazetteer,
  loadSharedNames,
  parsePlaces,
  parseSharedNames,
  PLACE_HEADER,
  PLACE_KINDS,
  PLACES_PATH,
  reviewGazetteer,
} from './gazetteer';
import { renderCountries } from './generate-countries';

/** The 26 cantons by their official abbreviation and one of their names (Federal Chancellery). */
const SWISS_CANTONS: [string, string][] = [
  ['AG', 'Aargau'],
  ['AI', 'Appenzell Innerrhoden'],
  ['AR', 'Appenzell Ausserrhoden'],
  ['BE', 'Bern'],
  ['BL', 'Basel-Landschaft'],
  ['BS', 'Basel-Stadt'],
  ['FR', 'Fribourg'],
  ['GE', 'Genève'],
  ['GL', 'Glarus'],
  ['GR', 'Graubünden'],
  ['JU', 'Jura'],
  ['LU', 'Luzern'],
  ['NE', 'Neuchâtel'],
  ['NW', 'Nidwalden'],
  ['OW', 'Obwalden'],
  ['SG', 'St. Gallen'],
  ['SH', 'Schaffhausen'],
  ['SO', 'Solothurn'],
  ['SZ', 'Schwyz'],
  ['TG', 'Thurgau'],
  ['TI', 'Ticino'],
  ['UR', 'Uri'],
  ['VD', 'Vaud'],
  ['VS', 'Valais'],
  ['ZG', 'Zug'],
  ['ZH', 'Zürich'],
];

/** The glossary's place and country concepts that name no one place (GLOSSARY.md). */
const GLOSSARY_GENERIC_PLACES = ['city', 'europe', 'neighbourhood', 'old_town', 'rooftop', 'village'];
/** Glossary concepts that are a gazetteer place themselves, not another meaning of its name. */
const GLOSSARY_CONCEPTS_THAT_ARE_PLACES = ['alps'];

describe('the gazetteer', () => {
  const gazetteer = loadGazetteer();
  const hand = gazetteer.places.filter((place) => place.kind !== 'country');
  const countries = gazetteer.places.filter((place) => place.kind === 'country');
  const ids = (name: string) => gazetteer.lookup(name).map((match) => match.place.id);

  it('reads both files: every ISO country, and at least 300 places written by hand', () => {
    expect(countries.length).toBeGreaterThanOrEqual(249);
    expect(hand.length).toBeGreaterThanOrEqual(300);
    expect(new Set(hand.map((place) => place.kind)).size).toBeGreaterThanOrEqual(PLACE_KINDS.length - 1);
  });

  it('gives every place a name in French, German, English and Italian', () => {
    for (const place of gazetteer.places) {
      for (const language of LANGUAGES) {
        expect([place.id, language, place.names[language].length > 0]).toEqual([place.id, language, true]);
      }
    }
  });

  it('holds the 26 Swiss cantons, and no other canton', () => {
    const cantons = hand.filter((place) => place.kind === 'canton');
    expect(cantons).toHaveLength(26);
    for (const [code, name] of SWISS_CANTONS) {
      const found = gazetteer.lookup(name).filter((match) => match.place.kind === 'canton');
      expect([code, found.length, found[0]?.place.countries]).toEqual([code, 1, ['CH']]);
    }
    expect(
      new Set(
        SWISS_CANTONS.map(
          ([, name]) => gazetteer.lookup(name).find((m) => m.place.kind === 'canton')?.place.id,
        ),
      ).size,
    ).toBe(26);
  });

  it('never uses one id twice', () => {
    expect(new Set(gazetteer.places.map((place) => place.id)).size).toBe(gazetteer.places.length);
  });

  it('passes its review: shared names declared, common words marked alike, local names, sorted', () => {
    expect(reviewGazetteer(gazetteer, loadSharedNames())).toEqual([]);
  });

  it('holds the countries exactly as the generator writes them (an edit needs the generator)', () => {
    expect(readFileSync(COUNTRIES_PATH, 'utf8')).toBe(renderCountries());
  });

  it('finds a place by its name in any of the four languages, folded as a search is', () => {
    expect(ids('Wallis')).toEqual(['canton_valais']);
    expect(ids('Vallese')).toEqual(['canton_valais']);
    expect(ids('Korsika')).toEqual(['corsica']);
    expect(ids('Corse')).toEqual(['corsica']);
    expect(ids('Genfersee')).toEqual(['lake_geneva']);
    expect(ids('lac Léman')).toEqual(['lake_geneva']);
    expect(ids('LAGO LEMANO')).toEqual(['lake_geneva']);
    expect(ids('Lake Geneva')).toEqual(['lake_geneva']);
    for (const name of ['Grisons', 'Graubünden', 'Graubuenden', 'Grigioni', 'Grischun']) {
      expect(ids(name)).toEqual(['canton_grisons']);
    }
    for (const name of ['Zoug', 'Zugo', 'Zug']) expect(ids(name).sort()).toEqual(['canton_zug', 'zug']);
    expect(ids('Nizza')).toEqual(['nice']);
    expect(ids("île d'Elbe")).toEqual(['elba']);
    expect(ids('isola d’Elba')).toEqual(['elba']);
    expect(ids('Elba').sort()).toEqual(['elba', 'elbe']);
    expect(ids('Zuerich').sort()).toEqual(['canton_zurich', 'zurich']);
    expect(ids('Vierwaldstättersee')).toEqual(['lake_lucerne']);
    expect(ids('Lac des Quatre-Cantons')).toEqual(['lake_lucerne']);
    expect(ids('nowhere')).toEqual([]);
  });

  it('finds countries by their names and exonyms', () => {
    for (const name of ['Schweiz', 'Suisse', 'Svizzera', 'Switzerland']) expect(ids(name)).toEqual(['ch']);
    for (const name of ['Deutschland', 'Allemagne', 'Germany', 'Germania']) expect(ids(name)).toEqual(['de']);
    expect(ids('Holland')).toEqual(['nl']);
    expect(ids('Ελλάδα')).toEqual(['gr']);
  });

  it("looks a search's folded words up as they are, without folding them again", () => {
    const ids = (name: string) => gazetteer.lookupFolded(name).map((match) => match.place.id);
    expect(ids('zurich')).toEqual(gazetteer.lookup('Zürich').map((match) => match.place.id));
    expect(ids('zurich')).not.toEqual([]);
    // written, not folded: no folded name is spelt so
    expect(ids('Zürich')).toEqual([]);
  });

  it('tells which lists a name is in and where it is also a common word', () => {
    const [bergen] = gazetteer.lookup('Bergen');
    expect(bergen).toMatchObject({ name: 'bergen', commonWordIn: ['de'] });
    expect(bergen.languages).toEqual(['fr', 'de', 'en', 'it', 'local']);
    expect(gazetteer.lookup('Nice')[0].commonWordIn).toEqual(['en']);
    expect(gazetteer.lookup('Nizza')[0].commonWordIn).toEqual([]);
    // German Island, and Icelandic Ísland folded.
    expect(gazetteer.lookup('Island')[0]).toMatchObject({ languages: ['de', 'local'], commonWordIn: ['en'] });
    expect(gazetteer.lookup('Côme')[0].commonWordIn).toEqual(['en', 'it']);
    expect(gazetteer.lookup('Korsika')[0].place).toMatchObject({
      kind: 'island',
      countries: ['FR'],
      names: { fr: ['Corse'], de: ['Korsika'], en: ['Corsica'], it: ['Corsica'] },
    });
  });

  it('places a place in its parents (Zermatt ⊂ Mattertal ⊂ Upper Valais ⊂ Valais)', () => {
    expect(gazetteer.ancestors('zermatt').map((place) => place.id)).toEqual([
      'mattertal',
      'upper_valais',
      'canton_valais',
    ]);
    expect(gazetteer.maxNameWords).toBeGreaterThanOrEqual(4);
  });

  it('marks a name that is also a word of the travel glossary as a common word in that language', () => {
    const words = new Map<string, Set<string>>();
    for (const concept of loadTravelGlossary()) {
      if (concept.domain === 'place' || concept.domain === 'country') continue;
      if (GLOSSARY_CONCEPTS_THAT_ARE_PLACES.includes(concept.id)) continue;
      for (const language of LANGUAGES) {
        for (const word of concept.words[language])
          words.set(word, (words.get(word) ?? new Set()).add(language));
      }
    }
    const unmarked: string[] = [];
    for (const [name, matches] of gazetteer.names()) {
      for (const language of words.get(name) ?? []) {
        for (const match of matches) {
          if (!match.commonWordIn.includes(language as never))
            unmarked.push(`${match.place.id}: "${name}" (${language})`);
        }
      }
    }
    expect(unmarked).toEqual([]);
  });

  it("agrees with the glossary's places and countries: their usual names lead to one place", () => {
    const disagreements: string[] = [];
    for (const concept of loadTravelGlossary()) {
      if (concept.domain !== 'place' && concept.domain !== 'country') continue;
      if (GLOSSARY_GENERIC_PLACES.includes(concept.id)) continue;
      // the glossary's words are folded already (folding twice may differ: `suède` → `suede` → `sude`)
      const found = LANGUAGES.map((language) =>
        gazetteer.lookupFolded(concept.words[language][0]).map((match) => match.place.id),
      );
      const common = found.reduce((all, some) => all.filter((id) => some.includes(id)));
      if (!common.length) disagreements.push(`${concept.id}: ${JSON.stringify(found)}`);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('foldName', () => {
  it('folds and splits as a search is', () => {
    expect(foldName("  Val-d'Isère ")).toBe('val d isere');
    expect(foldName('Sankt Gallen')).toBe('sankt gallen');
    expect(foldName('Großglockner')).toBe(foldName('Grossglockner'));
  });
});

describe('parsePlaces refuses a malformed gazetteer file, naming the line', () => {
  const header = PLACE_HEADER.join('\t');
  const line = (cells: Partial<Record<string, string>>) =>
    PLACE_HEADER.map(
      (column) =>
        cells[column] ??
        {
          id: 'zug',
          kind: 'city',
          countries: 'CH',
          parent: '',
          fr: 'Zoug',
          de: 'Zug',
          en: 'Zug',
          it: 'Zugo',
        }[column] ??
        '',
    ).join('\t');
  const parse =
    (...lines: string[]) =>
    () =>
      parsePlaces(lines.join('\n'), 'test.tsv');

  it('reads a good line', () => {
    const [zug] = parsePlaces([header, line({ local: 'Zug', ambiguous: 'Zug:de' })].join('\n'), 'test.tsv');
    expect(zug).toMatchObject({
      id: 'zug',
      kind: 'city',
      countries: ['CH'],
      local: ['Zug'],
      ambiguous: { zug: ['de'] },
    });
    expect(zug.parent).toBeUndefined();
  });

  it('a wrong header or column count, a missing header', () => {
    expect(parse('id\tkind')).toThrow('test.tsv, line 1: the header must be');
    expect(parse(header, 'zug\tcity\tCH')).toThrow('test.tsv, line 2: 3 columns, 10 expected');
    expect(parse('# only a comment')).toThrow('no header line');
  });

  it('a malformed or repeated id, an unknown kind, a malformed country, a missing name', () => {
    expect(parse('# c', header, line({}), line({}))).toThrow(
      new GazetteerError('test.tsv', 4, 'place "zug" is already defined on line 3'),
    );
    expect(parse(header, line({ id: 'Zug!' }))).toThrow('malformed place id "Zug!"');
    expect(parse(header, line({ kind: 'town' }))).toThrow('line 2: unknown kind "town"');
    expect(parse(header, line({ countries: 'Suisse' }))).toThrow('malformed country code "Suisse"');
    expect(parse(header, line({ countries: ' ; ' }))).toThrow('place "zug" has no country');
    expect(parse(header, line({ it: ' ; ' }))).toThrow('line 2: place "zug" has no it name');
    expect(parse(header, line({ parent: 'zug' }))).toThrow('place "zug" is its own parent');
  });

  it('an ambiguity that is malformed or not on one of the place’s names', () => {
    expect(parse(header, line({ ambiguous: 'Zug' }))).toThrow('malformed ambiguity "Zug"');
    expect(parse(header, line({ ambiguous: 'Train:de' }))).toThrow('"Train" is not a name of "zug"');
    expect(parse(header, line({ ambiguous: 'Zug:es' }))).toThrow('unknown language "es"');
    expect(parse(header, line({ ambiguous: 'Zug:de; zug:en' }))).toThrow('"zug" is already marked');
  });
});

describe('buildGazetteer refuses places that do not hold together', () => {
  const header = PLACE_HEADER.join('\t');
  const file = (source: string, ...lines: string[][]) =>
    parsePlaces([header, ...lines.map((cells) => cells.join('\t'))].join('\n'), source);
  const ch = file('countries.tsv', [
    'ch',
    'country',
    'CH',
    '',
    'Suisse',
    'Schweiz',
    'Switzerland',
    'Svizzera',
    '',
    '',
  ]);
  const place = (id: string, parent = '', kind = 'city', countries = 'CH') => [
    id,
    kind,
    countries,
    parent,
    id,
    id,
    id,
    id,
    id,
    '',
  ];

  it('an id used in both files, a country by hand, an unknown country', () => {
    expect(() => buildGazetteer(ch, file('places.tsv', place('ch')))).toThrow(
      'id "ch" is already used by countries.tsv',
    );
    expect(() => buildGazetteer(ch, file('places.tsv', place('fr', '', 'country', 'FR')))).toThrow(
      'not by hand',
    );
    expect(() => buildGazetteer(ch, file('places.tsv', place('paris', '', 'city', 'FR')))).toThrow(
      'places.tsv, line 2: unknown country "FR"',
    );
  });

  it('an unknown parent, a country as parent, a parent loop, a place outside its parent', () => {
    expect(() => buildGazetteer(ch, file('p', place('zermatt', 'valais')))).toThrow(
      'unknown parent "valais"',
    );
    expect(() => buildGazetteer(ch, file('p', place('zermatt', 'ch')))).toThrow('parent "ch" is a country');
    expect(() => buildGazetteer(ch, file('p', place('a', 'b'), place('b', 'a')))).toThrow('parents loop');
    const it = file('c', ['it', 'country', 'IT', '', 'Italie', 'Italien', 'Italy', 'Italia', '', '']);
    expect(() =>
      buildGazetteer(
        [...ch, ...it],
        file('p', place('alps', '', 'range', 'CH; IT'), place('como', 'alps', 'city', 'IT')),
      ),
    ).not.toThrow();
    expect(() =>
      buildGazetteer(
        [...ch, ...it],
        file('p', place('valais', '', 'canton'), place('como', 'valais', 'city', 'IT')),
      ),
    ).toThrow('"como" lies in IT, outside its parent "valais"');
  });
});

describe('shared names', () => {
  const header = PLACE_HEADER.join('\t');
  const countries = parsePlaces(
    [
      header,
      ['ch', 'country', 'CH', '', 'Suisse', 'Schweiz', 'Switzerland', 'Svizzera', '', ''].join('\t'),
    ].join('\n'),
    'c',
  );
  const places = (...lines: string[]) => parsePlaces([header, ...lines].join('\n'), 'p');
  const zugCanton = ['canton_zug', 'canton', 'CH', '', 'Zoug', 'Zug', 'Zug', 'Zugo', 'Zug', ''].join('\t');
  const zugCity = ['zug', 'city', 'CH', 'canton_zug', 'Zoug', 'Zug', 'Zug', 'Zugo', 'Zug', ''].join('\t');
  const jura = ['jura', 'range', 'CH', '', 'Jura', 'Jura', 'Jura', 'Giura', 'Jura', ''].join('\t');
  const juraCanton = ['canton_jura', 'canton', 'CH', '', 'Jura', 'Jura', 'Jura', 'Giura', 'Jura', ''].join(
    '\t',
  );
  const shared = (...lines: string[]) => parseSharedNames(['name\tplaces\treason', ...lines].join('\n'), 's');

  it('a name carried by a place and its parent needs no declaration; others do, exactly', () => {
    const gazetteer = buildGazetteer(countries, places(juraCanton, zugCanton, zugCity, jura));
    expect(reviewGazetteer(gazetteer, [])).toEqual([
      '"jura" is carried by canton_jura, jura: declare it in shared-names.tsv',
      '"giura" is carried by canton_jura, jura: declare it in shared-names.tsv',
    ]);
    const declared = shared(
      'Jura\tjura; canton_jura\tnamed after the range',
      'Giura\tcanton_jura; jura\tthe same',
    );
    expect(reviewGazetteer(gazetteer, declared)).toEqual([]);
    expect(
      reviewGazetteer(gazetteer, [...declared, ...shared('Genf\tgeneva; canton_geneva\tno longer')]),
    ).toEqual(['s, line 2: no place is called "Genf"']);
    expect(
      reviewGazetteer(
        gazetteer,
        shared(
          'Zug\tzug; canton_zug; jura\twrong',
          'Jura\tjura; canton_jura\t.',
          'Giura\tjura; canton_jura\t.',
        ),
      ),
    ).toEqual(['s, line 2: "zug" is carried by canton_zug, zug, declared for canton_zug, jura, zug']);
  });

  it('a common word marked differently by two places is reported', () => {
    const bergen = (id: string, commonWord: string) =>
      [id, 'city', 'CH', '', 'Bergen', 'Bergen', 'Bergen', 'Bergen', 'Bergen', commonWord].join('\t');
    const bergenDe = bergen('bergen', 'Bergen:de');
    const bergenEn = bergen('bergen_2', '');
    const gazetteer = buildGazetteer(countries, places(bergenDe, bergenEn));
    expect(reviewGazetteer(gazetteer, shared('Bergen\tbergen; bergen_2\ttwo towns'))).toEqual([
      '"bergen" is a common word in de or no language, by place',
    ]);
  });

  it('parseSharedNames refuses a repeated name, a single place, a missing reason', () => {
    expect(() => shared('Jura\tjura; canton_jura\tx', 'jura\tjura; canton_jura\ty')).toThrow(
      's, line 3: "jura" is already declared on line 2',
    );
    expect(() => shared('Jura\tjura\tx')).toThrow('"Jura" needs two places or more');
    expect(() => shared('Jura\tjura; canton_jura\t')).toThrow('"Jura" has no reason');
  });

  it('the committed places file starts with its header after the comments', () => {
    const firstData = readFileSync(PLACES_PATH, 'utf8')
      .split('\n')
      .find((line) => !line.startsWith('#'));
    expect(firstData).toBe(header);
  });
});
