import type { Language, Localised } from './generator-data';

/**
 * The data of the demo catalogue (`demo:<count>[:<seed>]`, demo-catalogue-generator.ts, D-61):
 * which places offer which themes, and each theme's words. The older generator's data
 * (generator-data.ts) stays as it is: `generated:<count>[:<seed>]` must not change.
 */

/** N: northern temperate, S: southern temperate, T: warm all year (beach any month, no snow). */
export type Climate = 'N' | 'S' | 'T';

export type ThemeSlug =
  | 'city-break'
  | 'beach'
  | 'hiking'
  | 'culture'
  | 'gastronomy'
  | 'wellness'
  | 'cruise'
  | 'road-trip'
  | 'ski'
  | 'family'
  | 'adventure'
  | 'wildlife'
  | 'safari'
  | 'cycling'
  | 'train';

export interface DemoPlace {
  name: string;
  /** ISO-2 code of the country (generator-data.ts's COUNTRIES names it in each language). */
  country: string;
  climate: Climate;
  /** By the sea: the offer is `seaside`. */
  coastal: boolean;
  /** What a traveller can do there: the only themes its offers are drawn from. */
  themes: ThemeSlug[];
}

/**
 * The reviewed table, one place a line: `country|place|climate|themes`, `~` before a place by the
 * sea. Snow sports only where there is a ski area, beaches only on coasts (or warm lake shores are
 * left out on purpose), cruises only on a sea, lake, river or fjord, city breaks only in cities,
 * safaris only in savanna parks; road trips in regions, not cities.
 */
const PLACE_TABLE = `
FR|Paris|N|city-break culture gastronomy family
FR|Lyon|N|city-break gastronomy culture
FR|~Marseille|N|city-break beach gastronomy cruise
FR|~Nice|N|beach city-break gastronomy
FR|Bordeaux|N|gastronomy city-break cycling
FR|Annecy|N|hiking cycling family wellness
FR|Colmar|N|gastronomy culture cycling
FR|~Côte d'Azur|N|beach road-trip gastronomy cruise
FR|Provence|N|cycling road-trip gastronomy culture
FR|~Bretagne|N|hiking road-trip gastronomy beach cycling
FR|~Corse|N|beach hiking road-trip cruise
FR|Chamonix|N|ski hiking adventure train
FR|Périgord|N|gastronomy culture family cycling
CH|Zürich|N|city-break culture gastronomy
CH|Genève|N|city-break culture gastronomy
CH|Lausanne|N|city-break wellness train
CH|Luzern|N|city-break cruise train culture
CH|Zermatt|N|ski hiking train wellness
CH|Interlaken|N|adventure hiking train family
CH|Lugano|N|city-break cruise gastronomy
CH|Montreux|N|wellness train culture cruise
CH|Grindelwald|N|ski hiking train family
CH|St. Moritz|N|ski wellness train
CH|Engadin|N|ski hiking cycling train
DE|Berlin|N|city-break culture
DE|München|N|city-break culture gastronomy
DE|~Hamburg|N|city-break cruise culture
DE|Köln|N|city-break culture
DE|Dresden|N|city-break culture cruise
DE|Düsseldorf|N|city-break gastronomy
DE|Schwarzwald|N|hiking wellness family ski cycling
DE|~Rügen|N|beach cycling family wellness
DE|~Sylt|N|beach wellness cycling
DE|Bodensee|N|cycling cruise wellness family
AT|Wien|N|city-break culture gastronomy
AT|Salzburg|N|city-break culture
AT|Innsbruck|N|ski city-break hiking
AT|Hallstatt|N|hiking culture
AT|Tirol|N|ski hiking family wellness
AT|Wachau|N|cycling cruise gastronomy
IT|Roma|N|city-break culture gastronomy
IT|Firenze|N|city-break culture gastronomy
IT|~Venezia|N|city-break culture cruise
IT|~Napoli|N|city-break gastronomy culture
IT|~Sicilia|N|beach road-trip culture gastronomy
IT|~Cinque Terre|N|hiking beach gastronomy
IT|Dolomiti|N|ski hiking adventure cycling
IT|Lago di Como|N|cruise wellness cycling
IT|~Sardegna|N|beach cruise road-trip
IT|~Costiera Amalfitana|N|beach gastronomy cruise road-trip
IT|Toscana|N|cycling gastronomy road-trip culture wellness
IT|Puglia|N|gastronomy cycling road-trip
ES|Madrid|N|city-break culture gastronomy
ES|~Barcelona|N|city-break beach culture gastronomy
ES|Sevilla|N|city-break culture
ES|~Málaga|N|beach city-break gastronomy
ES|~Mallorca|N|beach cycling hiking family
ES|Granada|N|culture city-break
ES|~Valencia|N|city-break beach gastronomy
ES|~Tenerife|T|beach hiking family wildlife
ES|Bilbao|N|city-break culture gastronomy
ES|Córdoba|N|culture
ES|~Menorca|N|beach cruise family
PT|~Lisboa|N|city-break culture gastronomy
PT|Porto|N|city-break gastronomy cruise
PT|~Algarve|N|beach family road-trip
PT|~Madeira|T|hiking wellness
PT|~São Miguel|N|hiking wildlife wellness
PT|Sintra|N|culture
PT|Évora|N|culture gastronomy
GR|Athína|N|city-break culture
GR|~Santorini|N|beach cruise wellness
GR|~Kreta|N|beach hiking family culture
GR|~Naxos|N|beach cruise
GR|Metéora|N|culture hiking
GR|~Rhodos|N|beach culture family
GR|~Korfu|N|beach family cruise
HR|~Dubrovnik|N|city-break culture cruise
HR|~Split|N|city-break cruise beach
HR|Plitvice|N|hiking family
HR|~Hvar|N|beach cruise
HR|Zagreb|N|city-break culture
HR|~Istrien|N|cycling gastronomy beach road-trip
NO|Oslo|N|city-break culture train
NO|~Bergen|N|cruise train city-break
NO|~Lofoten|N|adventure hiking wildlife cruise
NO|Tromsø|N|wildlife adventure
NO|~Geirangerfjord|N|cruise hiking
IS|Reykjavík|N|city-break wellness
IS|Mývatn|N|wellness wildlife hiking
IS|~Húsavík|N|wildlife cruise
IS|~Vík|N|road-trip hiking
IS|Þingvellir|N|road-trip hiking culture
SE|~Stockholm|N|city-break culture cruise
SE|~Göteborg|N|city-break gastronomy
SE|Kiruna|N|adventure wildlife ski
SE|~Malmö|N|city-break cycling
SE|Dalarna|N|ski family hiking
FI|~Helsinki|N|city-break wellness culture
FI|Rovaniemi|N|adventure family wildlife
FI|~Turku|N|cruise cycling
FI|Saimaa|N|wildlife cruise wellness adventure
DK|~København|N|city-break cycling gastronomy
DK|~Aarhus|N|city-break culture
DK|~Skagen|N|beach cycling
NL|Amsterdam|N|city-break cycling culture cruise
NL|Rotterdam|N|city-break culture
NL|~Texel|N|beach cycling wildlife family
NL|Utrecht|N|city-break cycling
BE|Bruxelles|N|city-break gastronomy culture
BE|Brugge|N|culture cycling
BE|Gent|N|city-break culture
BE|Ardennes|N|hiking adventure family cycling
GB|London|N|city-break culture
GB|Edinburgh|N|city-break culture train
GB|~Cornwall|N|beach hiking road-trip
GB|~Isle of Skye|N|hiking road-trip wildlife
GB|Cotswolds|N|hiking cycling gastronomy
GB|Lake District|N|hiking family adventure
IE|Dublin|N|city-break culture
IE|~Connemara|N|hiking road-trip
IE|~Galway|N|city-break culture gastronomy
IE|Kerry|N|road-trip hiking cycling
PL|Kraków|N|city-break culture
PL|~Gdańsk|N|city-break culture beach
PL|Warszawa|N|city-break culture
PL|Wrocław|N|city-break culture
CZ|Praha|N|city-break culture
CZ|Český Krumlov|N|culture
CZ|Brno|N|city-break gastronomy
HU|Budapest|N|city-break wellness cruise culture
HU|Balaton|N|wellness cycling family gastronomy
HU|Eger|N|gastronomy culture wellness
MA|Marrakech|N|city-break culture wellness gastronomy
MA|Fès|N|culture
MA|~Essaouira|N|beach gastronomy
MA|Chefchaouen|N|hiking culture
MA|~Agadir|T|beach family
MA|Désert d’Agafay|N|adventure wellness
TN|~Djerba|N|beach family wellness
TN|Tunis|N|culture city-break
TN|Tozeur|N|adventure road-trip
TN|~Hammamet|N|beach wellness family
EG|Le Caire|N|culture city-break
EG|Louxor|N|culture cruise
EG|~Hurghada|T|beach family adventure
EG|Assouan|N|cruise culture
EG|~Marsa Alam|T|beach wildlife
TR|İstanbul|N|city-break culture gastronomy
TR|Kapadokya|N|adventure hiking culture
TR|~Antalya|N|beach family culture
TR|~Bodrum|N|beach cruise
TR|Pamukkale|N|wellness culture
JP|Tōkyō|N|city-break culture gastronomy train
JP|Kyōto|N|culture train gastronomy
JP|Ōsaka|N|city-break gastronomy
JP|Hokkaidō|N|ski wildlife hiking
JP|~Okinawa|T|beach wellness
JP|Nara|N|culture
TH|Bangkok|T|city-break culture gastronomy
TH|Chiang Mai|T|culture hiking gastronomy
TH|~Phuket|T|beach family
TH|~Koh Samui|T|beach wellness
TH|~Krabi|T|beach adventure
VN|Hà Nội|T|city-break culture gastronomy
VN|~Hội An|T|culture gastronomy cycling beach
VN|~Hạ Long|T|cruise adventure
VN|Huế|T|culture
VN|Sa Pa|T|hiking culture
ID|~Bali|T|beach wellness culture
ID|~Lombok|T|beach hiking
ID|Java|T|culture adventure
ID|~Komodo|T|wildlife cruise
US|New York|N|city-break culture
US|~San Francisco|N|city-break road-trip gastronomy
US|Yellowstone|N|wildlife hiking road-trip
US|Grand Canyon|N|hiking adventure road-trip
US|~Miami|T|beach city-break
US|~Hawaiʻi|T|beach hiking wildlife
US|Route 66|N|road-trip
CA|Montréal|N|city-break gastronomy culture
CA|Québec|N|city-break culture
CA|~Vancouver|N|city-break wildlife train
CA|Banff|N|ski hiking wildlife train
CA|Toronto|N|city-break
CA|Yukon|N|adventure wildlife road-trip
MX|Ciudad de México|T|city-break culture gastronomy
MX|~Cancún|T|beach family
MX|Oaxaca|T|culture gastronomy
MX|~Tulum|T|beach culture wellness
MX|Yucatán|T|culture road-trip
PE|Cusco|T|culture hiking train
PE|Machu Picchu|T|hiking culture train
PE|~Lima|S|city-break gastronomy
PE|Arequipa|S|culture hiking
PE|Titicaca|T|culture cruise
AR|Buenos Aires|S|city-break culture gastronomy
AR|Patagonia|S|hiking adventure wildlife road-trip
AR|Mendoza|S|gastronomy cycling
AR|~Ushuaïa|S|cruise wildlife adventure
BR|~Rio de Janeiro|T|city-break beach
BR|~Salvador da Bahia|T|culture beach
BR|~Florianópolis|S|beach
BR|Manaus|T|wildlife cruise adventure
BR|Iguaçu|T|wildlife adventure
ZA|~Cape Town|S|city-break gastronomy wildlife beach
ZA|Kruger|S|safari
ZA|~Durban|T|beach city-break
ZA|Garden Route|S|road-trip wildlife hiking
KE|Masai Mara|T|safari
KE|~Mombasa|T|beach culture
KE|Nairobi|T|city-break culture safari
KE|Amboseli|T|safari
TZ|~Zanzibar|T|beach culture
TZ|Serengeti|T|safari
TZ|Kilimandjaro|T|hiking adventure
TZ|Ngorongoro|T|safari
NZ|~Auckland|S|city-break cruise
NZ|Queenstown|S|ski adventure hiking
NZ|Rotorua|S|wellness culture adventure
NZ|~Milford Sound|S|cruise wildlife hiking
AU|~Sydney|S|city-break beach
AU|~Melbourne|S|city-break gastronomy culture
AU|Uluru|T|culture hiking
AU|~Cairns|T|wildlife beach adventure
AU|~Tasmania|S|hiking wildlife road-trip
MU|~Grand Baie|T|beach cruise
MU|~Le Morne|T|beach wellness
MU|~Île aux Cerfs|T|beach cruise
SC|~Mahé|T|beach hiking
SC|~Praslin|T|beach wellness
SC|~La Digue|T|beach cycling
`;

export const DEMO_PLACES: DemoPlace[] = PLACE_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [country, rawName, climate, themes] = line.split('|');
    return {
      name: rawName.replace(/^~/, ''),
      country,
      climate: climate as Climate,
      coastal: rawName.startsWith('~'),
      themes: themes.split(' ') as ThemeSlug[],
    };
  });

const ALL_YEAR = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const NORTHERN_SUMMER = [5, 6, 7, 8, 9, 10];
const SOUTHERN_SUMMER = [11, 12, 1, 2, 3, 4];

/**
 * The months (1–12) an offer of this theme at this place departs in: snow sports in the winter of
 * its hemisphere, beaches in its summer (any month where it is warm all year), walks, rides and
 * adventures of a ski area in its summer.
 */
export function seasonMonths(theme: ThemeSlug, place: DemoPlace): number[] {
  const { climate } = place;
  if (theme === 'ski') return climate === 'S' ? [6, 7, 8, 9] : [12, 1, 2, 3, 4];
  const summer = climate === 'S' ? SOUTHERN_SUMMER : climate === 'N' ? NORTHERN_SUMMER : ALL_YEAR;
  if (theme === 'beach') return summer;
  if (place.themes.includes('ski') && ['hiking', 'cycling', 'adventure'].includes(theme)) {
    return climate === 'S' ? [12, 1, 2, 3] : [6, 7, 8, 9];
  }
  return ALL_YEAR;
}

export interface DemoTheme {
  slug: ThemeSlug;
  names: Localised;
  /**
   * Themes of one family share their words (a safari is wildlife): an offer's name and description
   * use no word of a family none of its categories belongs to.
   */
  family: string;
  /**
   * Words only this family's texts use, matched at the start of a word, case aside (`ski` matches
   * Skipass); a trailing `$` matches the whole word only.
   */
  words: string[];
  /** Name templates per language; `{place}` is replaced (French ones need no preposition before it). */
  titles: Record<Language, string[]>;
  /** First sentence of the description per language. */
  pitches: Record<Language, string[]>;
  /** Days, inclusive. */
  duration: [number, number];
}

const theme = (definition: DemoTheme): DemoTheme => definition;

export const DEMO_THEMES: DemoTheme[] = [
  theme({
    slug: 'city-break',
    family: 'city',
    names: { fr: 'Escapade urbaine', de: 'Städtereise', en: 'City break' },
    words: ['city', 'cities', 'ville$', 'villes$', 'urbain', 'städte', 'stadt'],
    titles: {
      fr: ['Escapade urbaine : {place}', '{place} côté quartiers', '{place} le temps d’un week-end'],
      de: ['Städtetrip nach {place}', 'Stadtbummel in {place}', '{place} für Stadtentdecker'],
      en: ['Weekend getaway to {place}', 'City lights of {place}', '{place} like a local'],
    },
    pitches: {
      fr: [
        'Cafés, marchés et quartiers animés : {place} se découvre à pied, au cœur de la ville.',
        'Des vieilles rues aux rooftops, quelques jours pour prendre le pouls de {place}.',
      ],
      de: [
        'Cafés, Märkte und lebendige Viertel: {place} erleben Sie zu Fuß, mitten in der Stadt.',
        'Von der Altstadt bis zur Dachterrasse – ein paar Tage, um {place} zu spüren.',
      ],
      en: [
        'Cafés, markets and lively neighbourhoods: {place} is a city best explored on foot.',
        'From the old town to rooftop bars, a few days to take in {place}.',
      ],
    },
    duration: [2, 5],
  }),
  theme({
    slug: 'beach',
    family: 'beach',
    names: { fr: 'Plage', de: 'Strand', en: 'Beach' },
    words: ['beach', 'plage', 'strand', 'balnéaire', 'badeferien', 'snorkel', 'schnorchel', 'sable', 'sand'],
    titles: {
      fr: ['Séjour balnéaire : {place}', 'Plages et farniente, {place}', '{place} côté plages'],
      de: ['Badeferien in {place}', 'Strandurlaub: {place}', 'Sonne, Strand und Meer in {place}'],
      en: ['Beach holiday in {place}', 'Sun, sand and sea in {place}', 'The beaches of {place}'],
    },
    pitches: {
      fr: [
        'Sable doux, eau claire et longs couchers de soleil : {place} invite à la détente.',
        'Baignade, snorkeling et sieste à l’ombre : les plages de {place} à deux pas de l’hôtel.',
      ],
      de: [
        'Weicher Sand, klares Wasser und lange Sonnenuntergänge: {place} lädt zum Entspannen ein.',
        'Baden, Schnorcheln und Siesta im Schatten: die Strände von {place} direkt vor dem Hotel.',
      ],
      en: [
        'Soft sand, clear water and long sunsets: {place} is made for slowing down.',
        'Swims, snorkelling and naps in the shade: the beaches of {place} steps from the hotel.',
      ],
    },
    duration: [6, 14],
  }),
  theme({
    slug: 'hiking',
    family: 'hiking',
    names: { fr: 'Randonnée', de: 'Wandern', en: 'Hiking' },
    words: ['hike', 'hiking', 'randonn', 'wander', 'trek', 'sentier', 'höhenweg'],
    titles: {
      fr: ['Randonnée : {place}', 'Sentiers de {place}', '{place} à pied, trek découverte'],
      de: ['Wanderferien in {place}', 'Wanderwege rund um {place}', 'Trekking in {place}'],
      en: ['Hiking the trails of {place}', 'Walking holiday in {place}', 'Trekking in {place}'],
    },
    pitches: {
      fr: [
        'Chaque jour, une étape de 12 à 18 km sur des sentiers balisés à travers {place}.',
        'Points de vue, sentiers et guide local : la randonnée idéale pour découvrir {place}.',
      ],
      de: [
        'Täglich 12 bis 18 km auf markierten Wanderwegen durch {place}.',
        'Aussichtspunkte, Pfade und ein einheimischer Guide: die ideale Wanderung, um {place} zu entdecken.',
      ],
      en: [
        'Hike 12 to 18 km a day on marked trails through {place}.',
        'Viewpoints, trails and a local guide: the perfect hike to discover {place}.',
      ],
    },
    duration: [5, 10],
  }),
  theme({
    slug: 'culture',
    family: 'culture',
    names: { fr: 'Culture', de: 'Kultur', en: 'Culture' },
    words: ['cultur', 'kultur', 'museum', 'museen', 'musée', 'monument', 'denkmäler', 'heritage', 'history$'],
    titles: {
      fr: ['Trésors culturels : {place}', 'Voyage culturel, {place}', 'Art et histoire : {place}'],
      de: ['Kulturreise nach {place}', 'Kunst und Geschichte in {place}', 'Kulturschätze von {place}'],
      en: ['Cultural treasures of {place}', 'Art and history in {place}', 'The heritage of {place}'],
    },
    pitches: {
      fr: [
        'Musées, monuments et architecture : un voyage culturel au fil de l’histoire, {place} en tête.',
        'Visites guidées des grands sites et des trésors méconnus : {place} côté culture.',
      ],
      de: [
        'Museen, Denkmäler und Architektur: eine Kulturreise durch die Geschichte von {place}.',
        'Führungen zu den Höhepunkten und verborgenen Kulturschätzen von {place}.',
      ],
      en: [
        'Museums, monuments and architecture: a journey through the history of {place}.',
        'Guided visits of the great sights and lesser-known cultural treasures of {place}.',
      ],
    },
    duration: [3, 9],
  }),
  theme({
    slug: 'gastronomy',
    family: 'gastronomy',
    names: { fr: 'Gastronomie', de: 'Kulinarik', en: 'Food & wine' },
    words: [
      'gastronom',
      'gourm',
      'food',
      'cuisine',
      'cooking',
      'kulinar',
      'koch',
      'dégust',
      'verkost',
      'tasting',
    ],
    titles: {
      fr: ['Escapade gourmande : {place}', 'Saveurs de {place}', 'Cours de cuisine, {place}'],
      de: ['Genussreise: {place} entdecken', 'Kulinarische Tage in {place}', 'Kochkurs in {place}'],
      en: ['{place} food escape', 'Flavours of {place}', 'Cooking classes in {place}'],
    },
    pitches: {
      fr: [
        'Dégustations, marchés et cours de cuisine : {place} se découvre à table.',
        'Produits du marché, recettes du terroir et bonnes tables : la gastronomie de {place}.',
      ],
      de: [
        'Verkostungen, Märkte und Kochkurse: {place} mit allen Sinnen genießen.',
        'Marktprodukte, regionale Rezepte und die besten Tische: {place} kulinarisch entdecken.',
      ],
      en: [
        'Tastings, markets and cooking classes: discover {place} one dish at a time.',
        'Market produce, local recipes and the best tables of {place}: a food lover’s trip.',
      ],
    },
    duration: [3, 7],
  }),
  theme({
    slug: 'wellness',
    family: 'wellness',
    names: { fr: 'Bien-être', de: 'Wellness', en: 'Wellness' },
    words: ['spa$', 'wellness', 'sauna', 'massag', 'bien-être', 'therm', 'yoga'],
    titles: {
      fr: ['Séjour bien-être : {place}', 'Spa et sérénité, {place}', 'Parenthèse zen : {place}'],
      de: ['Wellnesstage in {place}', 'Spa und Ruhe in {place}', 'Wellness-Auszeit in {place}'],
      en: ['Wellness retreat in {place}', 'Spa days in {place}', 'A wellness break in {place}'],
    },
    pitches: {
      fr: [
        'Massages, sauna et yoga au lever du soleil : {place} pour se ressourcer.',
        'Un hôtel avec spa et piscine chauffée, et le calme de {place} autour.',
      ],
      de: [
        'Massagen, Sauna und Yoga bei Sonnenaufgang in {place}.',
        'Ein Hotel mit Spa und beheiztem Pool, rundherum die Ruhe von {place}.',
      ],
      en: [
        'Massages, sauna and sunrise yoga in {place}.',
        'A hotel with a spa and a heated pool, and the calm of {place} all around.',
      ],
    },
    duration: [3, 7],
  }),
  theme({
    slug: 'cruise',
    family: 'cruise',
    names: { fr: 'Croisière', de: 'Kreuzfahrt', en: 'Cruise' },
    words: [
      'cruise',
      'croisière',
      'kreuzfahrt',
      'sail',
      'voilier',
      'segel',
      'boat',
      'bateau',
      'schiff',
      'on board',
      'à bord',
      'an bord',
    ],
    titles: {
      fr: ['Croisière : {place}', '{place} au fil de l’eau', 'Croisière découverte, {place}'],
      de: ['Kreuzfahrt: {place}', '{place} vom Schiff aus', 'Schiffsreise in {place}'],
      en: ['Cruise: {place}', '{place} by boat', '{place} from the water'],
    },
    pitches: {
      fr: [
        'Journées à bord, escales et dîners sur le pont : {place} vu depuis l’eau.',
        'Un petit bateau, une cabine avec vue et les eaux de {place} au rythme lent de la croisière.',
      ],
      de: [
        'Tage an Bord, Landgänge und Abendessen an Deck: {place} vom Wasser aus.',
        'Ein kleines Schiff, eine Kabine mit Aussicht und die Gewässer von {place} in aller Ruhe.',
      ],
      en: [
        'Days on board, shore visits and dinners on deck: {place} seen from the water.',
        'A small ship, a cabin with a view and the waters of {place} at a cruise’s slow pace.',
      ],
    },
    duration: [4, 12],
  }),
  theme({
    slug: 'road-trip',
    family: 'road-trip',
    names: { fr: 'Road trip', de: 'Rundreise', en: 'Road trip' },
    words: [
      'road trip',
      'roadtrip',
      'autotour',
      'mietwagen',
      'voiture de location',
      'rental car',
      'self-drive',
    ],
    titles: {
      fr: ['Road trip : {place} et ses trésors cachés', 'Autotour, {place}', '{place} en road trip'],
      de: ['Rundreise durch {place}', 'Mietwagenreise: {place}', 'Mit dem Mietwagen durch {place}'],
      en: ['Road trip through {place}', 'Self-drive tour of {place}', 'On the roads of {place}'],
    },
    pitches: {
      fr: [
        'Voiture de location, étapes choisies et liberté totale pour explorer {place}.',
        'Un autotour pensé autour des routes panoramiques : {place} à votre rythme.',
      ],
      de: [
        'Mietwagen, ausgewählte Etappen und volle Freiheit, um {place} zu erkunden.',
        'Eine Route mit dem Mietwagen entlang der schönsten Panoramastraßen von {place}.',
      ],
      en: [
        'A rental car, hand-picked stops and the freedom to explore {place}.',
        'A self-drive itinerary built around the scenic roads of {place}.',
      ],
    },
    duration: [7, 16],
  }),
  theme({
    slug: 'ski',
    family: 'snow',
    names: { fr: 'Ski', de: 'Skifahren', en: 'Skiing' },
    words: [
      'ski',
      'piste',
      'glisse',
      'powder',
      'slope',
      'luge',
      'sledg',
      'schlitt',
      'wintersport',
      'sports d’hiver',
      'snow',
      'neige',
      'schnee',
    ],
    titles: {
      fr: ['Semaine de ski : {place}', 'Glisse et neige, {place}', 'Sports d’hiver : {place}'],
      de: ['Skiurlaub in {place}', 'Pistenspaß in {place}', 'Wintersport in {place}'],
      en: ['Ski week in {place}', 'Powder days in {place}', 'Winter sports in {place}'],
    },
    pitches: {
      fr: [
        'Forfait inclus, pistes damées et chalet près des remontées : {place} sous la neige.',
        'Ski, luge et soirées au coin du feu : une semaine de glisse à {place}.',
      ],
      de: [
        'Skipass inklusive, gepflegte Pisten und ein Chalet nahe am Lift in {place}.',
        'Skifahren, Schlitteln und Abende am Kamin: eine Woche Schnee in {place}.',
      ],
      en: [
        'Lift pass included, groomed slopes and a chalet near the lifts in {place}.',
        'Skiing, sledging and evenings by the fire: a week of snow in {place}.',
      ],
    },
    duration: [6, 8],
  }),
  theme({
    slug: 'family',
    family: 'family',
    names: { fr: 'Famille', de: 'Familie', en: 'Family' },
    words: ['famil', 'kinder', 'kids', 'children', 'enfant', 'petits et grands', 'groß und klein'],
    titles: {
      fr: ['{place} en famille', 'Vacances en famille : {place}', 'Petits et grands, {place}'],
      de: ['Familienferien in {place}', '{place} mit Kindern', 'Familienzeit in {place}'],
      en: ['A family week in {place}', '{place} with kids', 'Family holidays in {place}'],
    },
    pitches: {
      fr: [
        'Activités pour les enfants, chambres familiales et rythme tranquille : {place} en famille.',
        'Parcs, ateliers et journées au grand air : {place} ravit petits et grands.',
      ],
      de: [
        'Kinderprogramm, Familienzimmer und gemütliches Tempo in {place}.',
        'Parks, Workshops und Tage an der frischen Luft: {place} begeistert Groß und Klein.',
      ],
      en: [
        'Activities for children, family rooms and an easy pace in {place}.',
        'Parks, workshops and days outdoors: {place} delights kids and parents alike.',
      ],
    },
    duration: [5, 12],
  }),
  theme({
    slug: 'adventure',
    family: 'adventure',
    names: { fr: 'Aventure', de: 'Abenteuer', en: 'Adventure' },
    words: ['adventur', 'aventur', 'abenteuer', 'expedition', 'expédition', 'canyoning', 'kayak', 'kajak'],
    titles: {
      fr: ['Aventure : {place} grandeur nature', 'Expédition, {place}', 'Raid nature : {place}'],
      de: ['Abenteuerreise: {place}', 'Expedition nach {place}', 'Abenteuer in {place}'],
      en: ['Adventure in {place}', 'Expedition to {place}', 'Off the beaten track in {place}'],
    },
    pitches: {
      fr: [
        'Départs à l’aube, journées actives et nuits sous la tente : l’aventure grandeur nature, {place}.',
        'Une expédition encadrée par des guides locaux au cœur de {place}.',
      ],
      de: [
        'Frühe Starts, aktive Tage und Nächte im Zelt: {place} als echtes Abenteuer.',
        'Eine Expedition mit einheimischen Guides mitten in {place}.',
      ],
      en: [
        'Early starts, active days and nights under canvas: {place} as a real adventure.',
        'An expedition led by local guides into the heart of {place}.',
      ],
    },
    duration: [6, 14],
  }),
  theme({
    slug: 'wildlife',
    family: 'wildlife',
    names: { fr: 'Nature sauvage', de: 'Tierbeobachtung', en: 'Wildlife' },
    words: [
      'wildlife',
      'faune',
      'tierwelt',
      'tierbeobacht',
      'safari',
      'pirsch',
      'game drive',
      'animaux',
      'animals',
      'tiere',
    ],
    titles: {
      fr: [
        'Faune sauvage : {place}',
        'À la rencontre des animaux, {place}',
        'Observation de la faune : {place}',
      ],
      de: ['Tierbeobachtung in {place}', 'Die Tierwelt von {place}', 'Tiere beobachten in {place}'],
      en: ['Wildlife of {place}', 'Wildlife watching in {place}', 'The animals of {place}'],
    },
    pitches: {
      fr: [
        'Guides naturalistes, sorties à l’aube et affûts discrets : la faune de {place} de près.',
        'Observer les animaux de {place} avec un naturaliste, à leur rythme.',
      ],
      de: [
        'Naturführer, frühe Ausflüge und stille Verstecke: die Tierwelt von {place} aus der Nähe.',
        'Die Tiere von {place} mit einem Naturführer beobachten, in ihrem eigenen Tempo.',
      ],
      en: [
        'Naturalist guides, early outings and quiet hides: the wildlife of {place} up close.',
        'Watch the animals of {place} with a naturalist, at their own pace.',
      ],
    },
    duration: [5, 12],
  }),
  theme({
    slug: 'safari',
    family: 'wildlife',
    names: { fr: 'Safari', de: 'Safari', en: 'Safari' },
    words: ['safari', 'pirsch', 'game drive', 'savane', 'savanne', 'savanna'],
    titles: {
      fr: ['Safari : {place}', 'Safari photo, {place}', '{place}, safari et lodge'],
      de: ['Safari in {place}', 'Pirschfahrten in {place}', 'Fotosafari: {place}'],
      en: ['Safari in {place}', 'Game drives in {place}', 'Photo safari: {place}'],
    },
    pitches: {
      fr: [
        'Safaris à l’aube, rangers expérimentés et lodge dans la savane : {place} à l’état sauvage.',
        'Lions, éléphants et grands troupeaux : la faune de {place} depuis un véhicule ouvert.',
      ],
      de: [
        'Pirschfahrten im Morgengrauen, erfahrene Ranger und eine Lodge in der Savanne: {place} ganz wild.',
        'Löwen, Elefanten und große Herden: die Tierwelt von {place} vom offenen Geländewagen aus.',
      ],
      en: [
        'Dawn game drives, expert rangers and a lodge in the savanna: {place} at its wildest.',
        'Lions, elephants and great herds: the wildlife of {place} from an open vehicle.',
      ],
    },
    duration: [4, 10],
  }),
  theme({
    slug: 'cycling',
    family: 'cycling',
    names: { fr: 'Vélo', de: 'Radreise', en: 'Cycling' },
    words: [
      'cycl',
      'vélo',
      'bike',
      'e-bike',
      'radreise',
      'radweg',
      'radwander',
      'fahrrad',
      'two wheels',
      'deux roues',
    ],
    titles: {
      fr: ['{place} à vélo', 'Vélo électrique : {place}', 'Sur deux roues, {place}'],
      de: ['Radreise durch {place}', 'Mit dem E-Bike durch {place}', 'Radwandern in {place}'],
      en: ['Cycling {place}', 'E-bike tour of {place}', 'Two wheels through {place}'],
    },
    pitches: {
      fr: [
        'Vélo électrique, bagages transportés et voies vertes : {place} à votre rythme.',
        'Des étapes de 40 km à vélo sur les petites routes de {place}.',
      ],
      de: [
        'E-Bike, Gepäcktransport und Radwege quer durch {place}.',
        'Etappen von 40 km mit dem Fahrrad auf den Nebenstraßen von {place}.',
      ],
      en: [
        'E-bikes, luggage transfers and cycle paths across {place}.',
        'Cycling stages of 40 km along the quiet back roads of {place}.',
      ],
    },
    duration: [5, 9],
  }),
  theme({
    slug: 'train',
    family: 'train',
    names: { fr: 'Voyage en train', de: 'Bahnreise', en: 'Rail journey' },
    words: ['train', 'rail', 'bahn', 'zug$', 'gare', 'wagon', 'carriage'],
    titles: {
      fr: ['Voyage en train panoramique : {place}', '{place} sur les rails', 'Train de légende, {place}'],
      de: ['Bahnreise nach {place}', 'Panoramazug in {place}', 'Mit der Bahn nach {place}'],
      en: ['Rail journey to {place}', 'Scenic trains of {place}', 'By train to {place}'],
    },
    pitches: {
      fr: [
        'Wagons panoramiques, viaducs et gares d’époque : le train jusqu’à {place}.',
        'Le train comme fil conducteur d’un voyage lent, {place} en ligne de mire.',
      ],
      de: [
        'Panoramawagen, Viadukte und historische Bahnhöfe bis {place}.',
        'Die Bahn als roter Faden einer langsamen Reise nach {place}.',
      ],
      en: [
        'Panoramic carriages, viaducts and historic stations all the way to {place}.',
        'The train as the thread of a slow journey to {place}.',
      ],
    },
    duration: [3, 10],
  }),
];

/** Sentences any offer may end its description with: none speaks of a theme. */
export const DEMO_CLOSINGS: Record<Language, string[]> = {
  fr: [
    'Annulation gratuite jusqu’à 30 jours avant le départ.',
    'Prix par personne, sur la base de deux voyageurs.',
    'Assurance voyage disponible sur demande.',
    'Départ garanti dès deux participants.',
  ],
  de: [
    'Kostenlose Stornierung bis 30 Tage vor Abreise.',
    'Preis pro Person bei zwei Reisenden.',
    'Reiseversicherung auf Anfrage.',
    'Durchführung garantiert ab zwei Personen.',
  ],
  en: [
    'Free cancellation up to 30 days before departure.',
    'Price per person, based on two travellers.',
    'Travel insurance available on request.',
    'Guaranteed departure from two travellers.',
  ],
};

export const DEMO_DURATION_WORDS: Record<Language, (days: number) => string> = {
  fr: (days) => `${days} jours sur place.`,
  de: (days) => `${days} Tage vor Ort.`,
  en: (days) => `${days} days in all.`,
};
