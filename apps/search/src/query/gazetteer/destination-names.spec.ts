import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNTRIES } from '../../catalogue/generator-data';
import { foldWords } from '../analysis/tokenizer';
import type { Language } from '../analysis/languages';
import { loadGazetteer } from './gazetteer';
import { loadPlacePrepositions, PlaceFinder } from './place-finder';

/**
 * Issue 62, "Names resolve, checked": every destination and region name of the generated catalogue
 * (catalogue/generator-data.ts: each country in its three languages and each of its places) and of
 * the multilingual catalogue (relevance/multilingual-catalogue.ndjson: each offer's destination in
 * the offer's language; relevance/multilingual-annotations.json: each place the judgements name,
 * under each of its names) is read by PlaceFinder, over the name alone, as one place: one mention
 * spanning every word, leading to exactly one place.
 */
/**
 * The names that do not resolve to one place, each with its reason. Shared names are declared in
 * shared-names.tsv: a search holding one gains both places, and its other words decide.
 */
const SHARED: Record<string, string> = {
  Mexico: 'the city in French, the country in English (shared-names.tsv)',
  Jura: 'the canton and the range (shared-names.tsv)',
  Freiburg: 'the Swiss canton and town, and Freiburg im Breisgau (shared-names.tsv)',
  Elba: 'the island, and Italian for the Elbe (shared-names.tsv)',
};

/** A common word of the name's own language: the place only after a preposition ("en Suède"). */
const COMMON_WORD: Record<string, string> = {
  Suède: 'French suède, the leather (countries.tsv: Suède:fr,en)',
};

/**
 * Names of towns, islands and parks outside the hand-written places: issue 62's generated places
 * (GeoNames' towns, from a dataset, not written by hand) bring them. Allowed not to resolve; one
 * that does must resolve to exactly one place.
 */
const NOT_IN_GAZETTEER = new Set([
  // the multilingual set's places of the world (issue 62's judged searches): country groups and
  // kinds of place to be resolved by their members, and resorts and regions the hand-written
  // gazetteer lacks; open in issue 62 until the ranking resolves them
  'Balkans',
  'Balkan',
  'Balcani',
  'Scandinavia',
  'Scandinavie',
  'Skandinavien',
  'islands (a kind of place: an island or an archipelago)',
  'long-haul (a kind of place: outside Europe and the Mediterranean)',
  '4 Vallées',
  'Hasliberg',
  'Prättigau',
  'Rätikon',
  'Wilder Kaiser',
  'SkiWelt',
  'Riviera del Corallo',
  'Capo Caccia',
  "Val d'Aran",
  'Baqueira-Beret',
  'Font-Romeu',
  'Cerdagne',
  'French Atlantic coast (Gironde, Landes, Basque coast)',
  'Mosel valley',
  'Budva',
  'La Réunion',
  'Düsseldorf',
  'São Miguel',
  'Évora',
  'Metéora',
  'Plitvice',
  'Mývatn',
  'Húsavík',
  'Vík',
  'Þingvellir',
  'Kiruna',
  'Malmö',
  'Dalarna',
  'Turku',
  'Saimaa',
  'Aarhus',
  'Skagen',
  'Rotterdam',
  'Utrecht',
  'Galway',
  'Kerry',
  'Wrocław',
  'Brno',
  'Eger',
  'Fès',
  'Essaouira',
  'Chefchaouen',
  'Désert d’Agafay',
  'Tunis',
  'Tozeur',
  'Hammamet',
  'Marsa Alam',
  'Bodrum',
  'Pamukkale',
  'Ōsaka',
  'Hokkaidō',
  'Okinawa',
  'Nara',
  'Chiang Mai',
  'Koh Samui',
  'Krabi',
  'Hà Nội',
  'Hội An',
  'Hạ Long',
  'Huế',
  'Sa Pa',
  'Lombok',
  'Java',
  'Komodo',
  'San Francisco',
  'Yellowstone',
  'Grand Canyon',
  'Miami',
  'Hawaiʻi',
  'Route 66',
  'Montréal',
  'Vancouver',
  'Banff',
  'Toronto',
  'Yukon',
  'Cancún',
  'Oaxaca',
  'Tulum',
  'Yucatán',
  'Cusco',
  'Machu Picchu',
  'Lima',
  'Arequipa',
  'Titicaca',
  'Buenos Aires',
  'Patagonia',
  'Mendoza',
  'Ushuaïa',
  'Rio de Janeiro',
  'Salvador da Bahia',
  'Florianópolis',
  'Manaus',
  'Iguaçu',
  'Kruger',
  'Durban',
  'Garden Route',
  'Masai Mara',
  'Mombasa',
  'Nairobi',
  'Amboseli',
  'Serengeti',
  'Ngorongoro',
  'Auckland',
  'Queenstown',
  'Rotorua',
  'Milford Sound',
  'Sydney',
  'Melbourne',
  'Uluru',
  'Cairns',
  'Tasmania',
  'Grand Baie',
  'Le Morne',
  'Île aux Cerfs',
  'Mahé',
  'Praslin',
  'La Digue',
  'Grächen',
  'Laax-Flims',
  'Bergün',
  'Villars-Gryon',
  'Stoos',
  'Flumserberg',
  'Franches-Montagnes',
  'Freiberge',
  'Calvi',
  'Porto-Vecchio',
  'Bonifacio',
  'Ajaccio',
  'Cap Corse',
  'Langhe',
  'La Maddalena',
  'Kornati',
  'Milos',
  'Bay of Kotor',
  'Ericeira',
]);

describe('destination names resolve to one place', () => {
  const gazetteer = loadGazetteer();
  const finder = new PlaceFinder(gazetteer, loadPlacePrepositions());
  const relevance = join(__dirname, '..', '..', 'relevance');

  /**
   * The places a name alone resolves to: [] when it is not read as one place spanning every word.
   * A name a place shares with the places it lies in (the town of Zürich and its canton) is the
   * innermost: the others contain it.
   */
  const resolve = (name: string, language?: Language): string[] => {
    const words = foldWords(name);
    const mentions = finder.mentions(words, language);
    if (mentions.length !== 1 || mentions[0].length !== words.length) return [];
    const ids = mentions[0].matches.map((match) => match.place.id);
    return ids.filter((id) => !ids.some((other) => gazetteer.ancestors(other).some((up) => up.id === id)));
  };

  const names: { name: string; language?: Language; where: string }[] = [];
  for (const country of COUNTRIES) {
    for (const language of ['fr', 'de', 'en'] as const)
      names.push({
        name: country.names[language],
        language,
        where: `generated ${country.code} (${language})`,
      });
    for (const place of country.places)
      names.push({ name: place.replace(/^~/, ''), where: `generated ${country.code} place` });
  }
  const seen = new Set<string>();
  for (const line of readFileSync(join(relevance, 'multilingual-catalogue.ndjson'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const offer = JSON.parse(line) as { language: Language; destination?: { name: string } | null };
    const name = offer.destination?.name;
    if (!name || seen.has(`${offer.language}\t${name}`)) continue;
    seen.add(`${offer.language}\t${name}`);
    names.push({ name, language: offer.language, where: `multilingual destination (${offer.language})` });
  }
  const annotations = JSON.parse(readFileSync(join(relevance, 'multilingual-annotations.json'), 'utf8')) as {
    places: Record<string, { name: string }>;
  };
  for (const [id, place] of Object.entries(annotations.places))
    for (const name of place.name.split(' / ')) names.push({ name, where: `multilingual place ${id}` });

  it('reads each as exactly one place, but the listed exceptions', () => {
    const resolved = names.map((entry) => ({ ...entry, places: resolve(entry.name, entry.language) }));
    const failures = resolved
      .filter((entry) => entry.places.length !== 1)
      .filter((entry) => !(entry.places.length === 0 && NOT_IN_GAZETTEER.has(entry.name)))
      .filter((entry) => !(entry.places.length > 1 && entry.name in SHARED))
      .filter((entry) => !(entry.places.length === 0 && entry.language && entry.name in COMMON_WORD))
      .map((entry) => `${entry.where}: "${entry.name}" → [${entry.places.join(', ')}]`);
    expect(failures).toEqual([]);
    // an exception that no longer fails is taken out
    const failing = new Set(resolved.filter((entry) => entry.places.length !== 1).map((entry) => entry.name));
    expect(
      [...Object.keys(SHARED), ...Object.keys(COMMON_WORD)].filter((name) => !failing.has(name)),
    ).toEqual([]);
    expect(names.length).toBeGreaterThan(400);
  });

  it('reads the names of issue 62 as one place: function words, English phrases, German compounds, valleys, French "ue"', () => {
    const cases: [string, Language, string][] = [
      ['Tyrol du Sud', 'fr', 'south_tyrol'],
      ["Val d'Aoste", 'fr', 'aosta_valley'],
      ["Côte d'Azur", 'fr', 'french_riviera'],
      ['Lago di Garda', 'it', 'lake_garda'],
      ['Canadian Rockies', 'en', 'canadian_rockies'],
      ['Fjordnorwegen', 'de', 'fjord_norway'],
      ['Norwegian fjords', 'en', 'fjord_norway'],
      ['Südtirol', 'de', 'south_tyrol'],
      ['Suedtirol', 'de', 'south_tyrol'],
      ['Rhonetal', 'de', 'rhone_valley'],
      ['vallée du Rhône', 'fr', 'rhone_valley'],
      ['Québec', 'fr', 'quebec_city'],
      ['Quebec', 'en', 'quebec_city'],
      ['Zuerich', 'de', 'zurich'],
      ['Muenchen', 'de', 'munich'],
    ];
    expect(cases.map(([name, language]) => resolve(name, language))).toEqual(cases.map(([, , id]) => [id]));
    // in a search, the whole name before its head word
    expect(
      finder.mentions(foldWords('ski Tyrol du Sud'), 'fr').map((m) => m.matches.map((x) => x.place.id)),
    ).toEqual([['south_tyrol']]);
    expect(resolve('Suède')).toEqual(['se']);
  });
});
