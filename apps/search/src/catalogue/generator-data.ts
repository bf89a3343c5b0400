/** Word lists of the demo catalogue generator (catalogue-generator.ts). */
export type Language = 'fr' | 'de' | 'en';
export type Localised = Record<Language, string>;

export interface Country {
  code: string;
  names: Localised;
  /** Places, with `~` marking those by the sea. */
  places: string[];
}

const c = (code: string, fr: string, de: string, en: string, places: string): Country => ({
  code,
  names: { fr, de, en },
  places: places.split('|'),
});

export const COUNTRIES: Country[] = [
  c(
    'FR',
    'France',
    'Frankreich',
    'France',
    "Paris|Lyon|~Marseille|~Nice|Bordeaux|Annecy|Colmar|~Côte d'Azur|Provence|~Bretagne|~Corse|Chamonix|Périgord",
  ),
  c(
    'CH',
    'Suisse',
    'Schweiz',
    'Switzerland',
    'Zürich|Genève|Lausanne|Luzern|Zermatt|Interlaken|Lugano|Montreux|Grindelwald|St. Moritz|Engadin',
  ),
  c(
    'DE',
    'Allemagne',
    'Deutschland',
    'Germany',
    'Berlin|München|~Hamburg|Köln|Dresden|Düsseldorf|Schwarzwald|~Rügen|~Sylt|Bodensee',
  ),
  c('AT', 'Autriche', 'Österreich', 'Austria', 'Wien|Salzburg|Innsbruck|Hallstatt|Tirol|Wachau'),
  c(
    'IT',
    'Italie',
    'Italien',
    'Italy',
    'Roma|Firenze|~Venezia|~Napoli|~Sicilia|~Cinque Terre|Dolomiti|Lago di Como|~Sardegna|~Costiera Amalfitana|Toscana|Puglia',
  ),
  c(
    'ES',
    'Espagne',
    'Spanien',
    'Spain',
    'Madrid|~Barcelona|Sevilla|~Málaga|~Mallorca|Granada|~Valencia|~Tenerife|Bilbao|Córdoba|~Menorca',
  ),
  c('PT', 'Portugal', 'Portugal', 'Portugal', '~Lisboa|Porto|~Algarve|~Madeira|~São Miguel|Sintra|Évora'),
  c('GR', 'Grèce', 'Griechenland', 'Greece', 'Athína|~Santorini|~Kreta|~Naxos|Metéora|~Rhodos|~Korfu'),
  c('HR', 'Croatie', 'Kroatien', 'Croatia', '~Dubrovnik|~Split|Plitvice|~Hvar|Zagreb|~Istrien'),
  c('NO', 'Norvège', 'Norwegen', 'Norway', 'Oslo|~Bergen|~Lofoten|Tromsø|~Geirangerfjord'),
  c('IS', 'Islande', 'Island', 'Iceland', 'Reykjavík|Mývatn|~Húsavík|~Vík|Þingvellir'),
  c('SE', 'Suède', 'Schweden', 'Sweden', '~Stockholm|~Göteborg|Kiruna|~Malmö|Dalarna'),
  c('FI', 'Finlande', 'Finnland', 'Finland', '~Helsinki|Rovaniemi|~Turku|Saimaa'),
  c('DK', 'Danemark', 'Dänemark', 'Denmark', '~København|~Aarhus|~Skagen'),
  c('NL', 'Pays-Bas', 'Niederlande', 'Netherlands', 'Amsterdam|Rotterdam|~Texel|Utrecht'),
  c('BE', 'Belgique', 'Belgien', 'Belgium', 'Bruxelles|Brugge|Gent|Ardennes'),
  c(
    'GB',
    'Royaume-Uni',
    'Vereinigtes Königreich',
    'United Kingdom',
    'London|Edinburgh|~Cornwall|~Isle of Skye|Cotswolds|Lake District',
  ),
  c('IE', 'Irlande', 'Irland', 'Ireland', 'Dublin|~Connemara|~Galway|Kerry'),
  c('PL', 'Pologne', 'Polen', 'Poland', 'Kraków|~Gdańsk|Warszawa|Wrocław'),
  c('CZ', 'Tchéquie', 'Tschechien', 'Czechia', 'Praha|Český Krumlov|Brno'),
  c('HU', 'Hongrie', 'Ungarn', 'Hungary', 'Budapest|Balaton|Eger'),
  c('MA', 'Maroc', 'Marokko', 'Morocco', 'Marrakech|Fès|~Essaouira|Chefchaouen|~Agadir|Désert d’Agafay'),
  c('TN', 'Tunisie', 'Tunesien', 'Tunisia', '~Djerba|Tunis|Tozeur|~Hammamet'),
  c('EG', 'Égypte', 'Ägypten', 'Egypt', 'Le Caire|Louxor|~Hurghada|Assouan|~Marsa Alam'),
  c('TR', 'Turquie', 'Türkei', 'Türkiye', 'İstanbul|Kapadokya|~Antalya|~Bodrum|Pamukkale'),
  c('JP', 'Japon', 'Japan', 'Japan', 'Tōkyō|Kyōto|Ōsaka|Hokkaidō|~Okinawa|Nara'),
  c('TH', 'Thaïlande', 'Thailand', 'Thailand', 'Bangkok|Chiang Mai|~Phuket|~Koh Samui|~Krabi'),
  c('VN', 'Viêt Nam', 'Vietnam', 'Vietnam', 'Hà Nội|~Hội An|~Hạ Long|Huế|Sa Pa'),
  c('ID', 'Indonésie', 'Indonesien', 'Indonesia', '~Bali|~Lombok|Java|~Komodo'),
  c(
    'US',
    'États-Unis',
    'Vereinigte Staaten',
    'United States',
    'New York|~San Francisco|Yellowstone|Grand Canyon|~Miami|~Hawaiʻi|Route 66',
  ),
  c('CA', 'Canada', 'Kanada', 'Canada', 'Montréal|Québec|~Vancouver|Banff|Toronto|Yukon'),
  c('MX', 'Mexique', 'Mexiko', 'Mexico', 'Ciudad de México|~Cancún|Oaxaca|~Tulum|Yucatán'),
  c('PE', 'Pérou', 'Peru', 'Peru', 'Cusco|Machu Picchu|~Lima|Arequipa|Titicaca'),
  c('AR', 'Argentine', 'Argentinien', 'Argentina', 'Buenos Aires|Patagonia|Mendoza|~Ushuaïa'),
  c('BR', 'Brésil', 'Brasilien', 'Brazil', '~Rio de Janeiro|~Salvador da Bahia|~Florianópolis|Manaus|Iguaçu'),
  c('ZA', 'Afrique du Sud', 'Südafrika', 'South Africa', '~Cape Town|Kruger|~Durban|Garden Route'),
  c('KE', 'Kenya', 'Kenia', 'Kenya', 'Masai Mara|~Mombasa|Nairobi|Amboseli'),
  c('TZ', 'Tanzanie', 'Tansania', 'Tanzania', '~Zanzibar|Serengeti|Kilimandjaro|Ngorongoro'),
  c('NZ', 'Nouvelle-Zélande', 'Neuseeland', 'New Zealand', '~Auckland|Queenstown|Rotorua|~Milford Sound'),
  c('AU', 'Australie', 'Australien', 'Australia', '~Sydney|~Melbourne|Uluru|~Cairns|~Tasmania'),
  c('MU', 'Maurice', 'Mauritius', 'Mauritius', '~Grand Baie|~Le Morne|~Île aux Cerfs'),
  c('SC', 'Seychelles', 'Seychellen', 'Seychelles', '~Mahé|~Praslin|~La Digue'),
];

export interface Theme {
  slug: string;
  names: Localised;
  /** Name templates per language; `{place}` is replaced. */
  titles: Record<Language, string[]>;
  /** First sentence of the description per language. */
  pitches: Record<Language, string[]>;
  seaside?: boolean;
}

export const THEMES: Theme[] = [
  {
    slug: 'city-break',
    names: { fr: 'Escapade urbaine', de: 'Städtereise', en: 'City break' },
    titles: {
      fr: ['Week-end prolongé à {place}', 'Escapade urbaine à {place}', '{place} côté quartiers'],
      de: ['Städtetrip nach {place}', 'Kurzurlaub in {place}', '{place} für Entdecker'],
      en: ['Weekend getaway to {place}', 'City lights of {place}', '{place} like a local'],
    },
    pitches: {
      fr: [
        'Flânez dans les rues de {place}, entre cafés, musées et marchés animés.',
        'Des quartiers historiques aux rooftops branchés, {place} se vit à pied.',
      ],
      de: [
        'Schlendern Sie durch {place}: Cafés, Museen und lebhafte Märkte.',
        'Von der Altstadt bis zur Dachterrasse – {place} erleben Sie zu Fuß.',
      ],
      en: [
        'Wander the streets of {place}, from cafés and museums to lively markets.',
        'From the old town to rooftop bars, {place} is best explored on foot.',
      ],
    },
  },
  {
    slug: 'beach',
    seaside: true,
    names: { fr: 'Plage', de: 'Strand', en: 'Beach' },
    titles: {
      fr: ['Farniente et plages à {place}', 'Séjour balnéaire à {place}', 'Les criques secrètes de {place}'],
      de: ['Badeferien in {place}', 'Strandurlaub auf {place}', 'Sonne und Meer in {place}'],
      en: ['Beach holiday in {place}', 'Sun and sea in {place}', 'Hidden coves of {place}'],
    },
    pitches: {
      fr: [
        'Sable fin, eaux turquoise et couchers de soleil : {place} invite à la détente.',
        'Baignade, snorkeling et sieste à l’ombre des pins à {place}.',
      ],
      de: [
        'Feiner Sand, türkisblaues Wasser und Sonnenuntergänge: {place} lädt zum Entspannen ein.',
        'Baden, Schnorcheln und Siesta unter Pinien in {place}.',
      ],
      en: [
        'Soft sand, turquoise water and long sunsets: {place} is made for slowing down.',
        'Swimming, snorkelling and afternoon naps in the shade at {place}.',
      ],
    },
  },
  {
    slug: 'hiking',
    names: { fr: 'Randonnée', de: 'Wandern', en: 'Hiking' },
    titles: {
      fr: ['Randonnée au cœur de {place}', 'Sentiers et sommets de {place}', 'Trek découverte à {place}'],
      de: ['Wanderferien in {place}', 'Höhenwege rund um {place}', 'Trekking-Abenteuer {place}'],
      en: ['Hiking the trails of {place}', 'Peaks and passes of {place}', 'Trekking adventure in {place}'],
    },
    pitches: {
      fr: [
        'Chaque jour, une étape de 12 à 18 km à travers les paysages de {place}.',
        'Cols, lacs et refuges : la randonnée idéale pour découvrir {place}.',
      ],
      de: [
        'Täglich 12 bis 18 km durch die Landschaften von {place}.',
        'Pässe, Seen und Hütten: die ideale Wanderung, um {place} zu entdecken.',
      ],
      en: [
        'Walk 12 to 18 km a day through the landscapes of {place}.',
        'Passes, lakes and mountain huts: the perfect hike to discover {place}.',
      ],
    },
  },
  {
    slug: 'culture',
    names: { fr: 'Culture', de: 'Kultur', en: 'Culture' },
    titles: {
      fr: ['Trésors culturels de {place}', 'Voyage culturel à {place}', 'Art et histoire à {place}'],
      de: ['Kulturreise nach {place}', 'Kunst und Geschichte in {place}', 'Schätze von {place}'],
      en: ['Cultural treasures of {place}', 'Art and history in {place}', 'The heritage of {place}'],
    },
    pitches: {
      fr: [
        'Musées, monuments et architecture : une plongée dans l’histoire de {place}.',
        'Visites guidées des sites incontournables et des trésors méconnus de {place}.',
      ],
      de: [
        'Museen, Denkmäler und Architektur: eine Reise durch die Geschichte von {place}.',
        'Führungen zu den Höhepunkten und verborgenen Schätzen von {place}.',
      ],
      en: [
        'Museums, monuments and architecture: a journey through the history of {place}.',
        'Guided visits of the great sights and lesser-known treasures of {place}.',
      ],
    },
  },
  {
    slug: 'gastronomy',
    names: { fr: 'Gastronomie', de: 'Kulinarik', en: 'Food & wine' },
    titles: {
      fr: ['Escapade gourmande à {place}', 'Saveurs et vins de {place}', 'Cours de cuisine à {place}'],
      de: ['Genussreise: {place} entdecken', 'Kulinarische Tage in {place}', 'Wein und Küche in {place}'],
      en: ['{place} food & wine escape', 'Flavours of {place}', 'Cooking classes in {place}'],
    },
    pitches: {
      fr: [
        'Dégustations, marchés et tables étoilées : {place} se découvre à table.',
        'Crème, fromages affinés et vins du terroir : un festin à {place}.',
      ],
      de: [
        'Verkostungen, Märkte und Sterneküche: {place} mit allen Sinnen genießen.',
        'Käse, Wein und regionale Spezialitäten: ein Festmahl in {place}.',
      ],
      en: [
        'Tastings, markets and starred tables: discover {place} one dish at a time.',
        'Local cheese, regional wines and family recipes: a feast in {place}.',
      ],
    },
  },
  {
    slug: 'wellness',
    names: { fr: 'Bien-être', de: 'Wellness', en: 'Wellness' },
    titles: {
      fr: ['Séjour bien-être à {place}', 'Spa et sérénité à {place}', 'Parenthèse zen à {place}'],
      de: ['Wellnesstage in {place}', 'Spa und Ruhe in {place}', 'Auszeit in {place}'],
      en: ['Wellness retreat in {place}', 'Spa days in {place}', 'A quiet escape to {place}'],
    },
    pitches: {
      fr: [
        'Massages, sauna et yoga au lever du soleil à {place}.',
        'Hôtel-spa avec piscine chauffée pour se ressourcer à {place}.',
      ],
      de: [
        'Massagen, Sauna und Yoga bei Sonnenaufgang in {place}.',
        'Spa-Hotel mit beheiztem Pool zum Auftanken in {place}.',
      ],
      en: [
        'Massages, sauna and sunrise yoga in {place}.',
        'A spa hotel with a heated pool to recharge in {place}.',
      ],
    },
  },
  {
    slug: 'cruise',
    seaside: true,
    names: { fr: 'Croisière', de: 'Kreuzfahrt', en: 'Cruise' },
    titles: {
      fr: ['Croisière découverte : {place}', 'Au fil de l’eau à {place}', 'Croisière côtière de {place}'],
      de: ['Kreuzfahrt ab {place}', 'Segeltörn rund um {place}', 'Küstenkreuzfahrt {place}'],
      en: ['Coastal cruise from {place}', 'Sailing around {place}', 'Island hopping from {place}'],
    },
    pitches: {
      fr: [
        'À bord d’un voilier, cap sur les îles et les ports de {place}.',
        'Escales, baignades en pleine mer et dîners sur le pont autour de {place}.',
      ],
      de: [
        'An Bord eines Segelschiffs zu den Inseln und Häfen von {place}.',
        'Landgänge, Baden im offenen Meer und Abendessen an Deck rund um {place}.',
      ],
      en: [
        'Aboard a sailing ship, set course for the islands and harbours of {place}.',
        'Shore visits, open-sea swims and dinners on deck around {place}.',
      ],
    },
  },
  {
    slug: 'road-trip',
    names: { fr: 'Road trip', de: 'Rundreise', en: 'Road trip' },
    titles: {
      fr: ['Road trip : {place} et ses trésors cachés', 'Autotour de {place}', 'Sur les routes de {place}'],
      de: ['Rundreise durch {place}', 'Mietwagenreise {place}', 'Auf den Straßen von {place}'],
      en: ['Road trip through {place}', 'Self-drive tour of {place}', 'On the roads of {place}'],
    },
    pitches: {
      fr: [
        'Voiture de location, étapes choisies et liberté totale pour explorer {place}.',
        'Un itinéraire pensé pour les routes panoramiques de {place}.',
      ],
      de: [
        'Mietwagen, ausgewählte Etappen und volle Freiheit, um {place} zu erkunden.',
        'Eine Route entlang der schönsten Panoramastraßen von {place}.',
      ],
      en: [
        'A rental car, hand-picked stops and the freedom to explore {place}.',
        'An itinerary built around the scenic roads of {place}.',
      ],
    },
  },
  {
    slug: 'ski',
    names: { fr: 'Ski', de: 'Skifahren', en: 'Skiing' },
    titles: {
      fr: ['Semaine de ski à {place}', 'Glisse et raclette à {place}', 'Sports d’hiver à {place}'],
      de: ['Skiurlaub in {place}', 'Pistenspaß in {place}', 'Winterferien in {place}'],
      en: ['Ski week in {place}', 'Powder days in {place}', 'Winter sports in {place}'],
    },
    pitches: {
      fr: [
        'Forfait inclus, pistes damées et chalet au pied des remontées à {place}.',
        'Ski, luge et fondue au coin du feu à {place}.',
      ],
      de: [
        'Skipass inklusive, gepflegte Pisten und Chalet direkt am Lift in {place}.',
        'Ski, Schlitteln und Fondue am Kamin in {place}.',
      ],
      en: [
        'Lift pass included, groomed slopes and a chalet by the lifts in {place}.',
        'Skiing, sledging and fondue by the fire in {place}.',
      ],
    },
  },
  {
    slug: 'family',
    names: { fr: 'Famille', de: 'Familie', en: 'Family' },
    titles: {
      fr: ['{place} en famille', 'Vacances en tribu à {place}', 'Aventures pour petits et grands à {place}'],
      de: ['Familienabenteuer in {place}', 'Familienferien in {place}', '{place} mit Kindern'],
      en: ['A family week in {place}', '{place} with kids', 'Family adventures in {place}'],
    },
    pitches: {
      fr: [
        'Activités pour les enfants, chambres familiales et rythme tranquille à {place}.',
        'Parcs, ateliers et baignades : {place} ravit petits et grands.',
      ],
      de: [
        'Kinderprogramm, Familienzimmer und gemütliches Tempo in {place}.',
        'Parks, Workshops und Baden: {place} begeistert Groß und Klein.',
      ],
      en: [
        'Activities for children, family rooms and an easy pace in {place}.',
        'Parks, workshops and swims: {place} delights young and old.',
      ],
    },
  },
  {
    slug: 'adventure',
    names: { fr: 'Aventure', de: 'Abenteuer', en: 'Adventure' },
    titles: {
      fr: ['Aventure sauvage à {place}', 'Expédition à {place}', 'Raid nature à {place}'],
      de: ['Erlebnisreise {place} – Natur pur', 'Expedition nach {place}', 'Abenteuer in {place}'],
      en: ['Wild adventure in {place}', 'Expedition to {place}', 'Off the beaten track in {place}'],
    },
    pitches: {
      fr: [
        'Kayak, canyoning et nuits sous tente : {place} grandeur nature.',
        'Une expédition encadrée par des guides locaux au cœur de {place}.',
      ],
      de: [
        'Kajak, Canyoning und Nächte im Zelt: {place} hautnah.',
        'Eine Expedition mit einheimischen Guides mitten in {place}.',
      ],
      en: [
        'Kayaking, canyoning and nights under canvas: {place} up close.',
        'An expedition led by local guides into the heart of {place}.',
      ],
    },
  },
  {
    slug: 'wildlife',
    names: { fr: 'Nature sauvage', de: 'Tierbeobachtung', en: 'Wildlife' },
    titles: {
      fr: [
        'Safari et faune de {place}',
        'À la rencontre des animaux de {place}',
        'Observation de la faune à {place}',
      ],
      de: ['Safari in {place}', 'Tierbeobachtung in {place}', 'Wildnis von {place}'],
      en: ['Safari in {place}', 'Wildlife of {place}', 'Whales, birds and bears of {place}'],
    },
    pitches: {
      fr: [
        'Safaris à l’aube, guides naturalistes et lodges isolés à {place}.',
        'Baleines, oiseaux marins et grands mammifères : la faune de {place}.',
      ],
      de: [
        'Pirschfahrten im Morgengrauen, Naturführer und abgelegene Lodges in {place}.',
        'Wale, Seevögel und Großwild: die Tierwelt von {place}.',
      ],
      en: [
        'Dawn game drives, naturalist guides and remote lodges in {place}.',
        'Whales, seabirds and big mammals: the wildlife of {place}.',
      ],
    },
  },
  {
    slug: 'cycling',
    names: { fr: 'Vélo', de: 'Radreise', en: 'Cycling' },
    titles: {
      fr: ['{place} à vélo', 'Balade à vélo électrique à {place}', 'Vélo et châteaux à {place}'],
      de: ['Radreise durch {place}', 'Mit dem E-Bike durch {place}', 'Radwandern in {place}'],
      en: ['Cycling {place}', 'E-bike tour of {place}', 'Two wheels through {place}'],
    },
    pitches: {
      fr: [
        'Vélo électrique, bagages transportés et pistes cyclables à travers {place}.',
        'Des étapes de 40 km sur les petites routes de {place}.',
      ],
      de: [
        'E-Bike, Gepäcktransport und Radwege quer durch {place}.',
        'Etappen von 40 km auf den Nebenstraßen von {place}.',
      ],
      en: [
        'E-bikes, luggage transfers and cycle paths across {place}.',
        'Stages of 40 km along the quiet back roads of {place}.',
      ],
    },
  },
  {
    slug: 'train',
    names: { fr: 'Voyage en train', de: 'Bahnreise', en: 'Rail journey' },
    titles: {
      fr: ['Voyage en train panoramique : {place}', '{place} sur les rails', 'Train de légende vers {place}'],
      de: ['Bahnreise nach {place}', 'Panoramazug durch {place}', 'Mit dem Zug nach {place}'],
      en: ['Rail journey to {place}', 'Scenic trains of {place}', 'By train across {place}'],
    },
    pitches: {
      fr: [
        'Wagons panoramiques, viaducs et gares d’époque jusqu’à {place}.',
        'Le train comme fil conducteur d’un voyage lent vers {place}.',
      ],
      de: [
        'Panoramawagen, Viadukte und historische Bahnhöfe bis {place}.',
        'Der Zug als roter Faden einer langsamen Reise nach {place}.',
      ],
      en: [
        'Panoramic carriages, viaducts and historic stations all the way to {place}.',
        'The train as the thread of a slow journey to {place}.',
      ],
    },
  },
];

export const CLOSINGS: Record<Language, string[]> = {
  fr: [
    'Hébergement en hôtel de charme, petit-déjeuner inclus.',
    'Guide francophone et transferts compris.',
    'Idéal pour découvrir la région à votre rythme.',
    'Petits groupes de 8 à 14 voyageurs.',
    'Départ garanti dès deux participants.',
  ],
  de: [
    'Übernachtung in ausgewählten Hotels mit Frühstück.',
    'Deutschsprachige Reiseleitung und Transfers inklusive.',
    'Perfekt, um die Region in Ruhe zu erkunden.',
    'Kleine Gruppen von 8 bis 14 Reisenden.',
    'Durchführung garantiert ab zwei Personen.',
  ],
  en: [
    'Stay in hand-picked hotels with breakfast included.',
    'English-speaking guide and transfers included.',
    'Ideal for exploring the region at your own pace.',
    'Small groups of 8 to 14 travellers.',
    'Guaranteed departure from two travellers.',
  ],
};

export const DURATION_WORDS: Record<Language, (days: number) => string> = {
  fr: (days) => `${days} jour${days > 1 ? 's' : ''} de découverte.`,
  de: (days) => `${days} Tag${days > 1 ? 'e' : ''} voller Entdeckungen.`,
  en: (days) => `${days} day${days > 1 ? 's' : ''} of discovery.`,
};

export const DEPARTURE_TIMES = ['06:45', '07:30', '08:00', '08:30', '09:15', '10:00', '13:45', '18:30'];
export const OPERATORS = [
  'Alpenblick Reisen',
  'Horizons Lointains',
  'Northern Trails',
  'Voyages Léman',
  'Südwind Touristik',
  'Blue Compass',
];
