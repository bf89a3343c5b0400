import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogueRecord } from '../catalogue/catalogue-record';
import { generateCatalogue } from '../catalogue/catalogue-generator';
import { COUNTRIES } from '../catalogue/generator-data';

/**
 * Writes judged-queries.json: the judged query set of the demo catalogue (`generated:2000`),
 * committed before any tuning. Judgements come from the generator's ground truth, never from a
 * ranker: an offer's place is its photos' `alt`, its theme the first category, its language the
 * `language` field. Grade 2: the place and the theme the query asks for (or the exact name); grade
 * 1: the place alone (or the theme as a secondary category). A country stands for all its places
 * (an offer's country is the one whose places hold its place). Cross-language queries judge only
 * offers written in another language than the query's. The set has 15 queries of
 * each of 8 types (`long`: natural-language sentences), spread over fr, de and en. Run after
 * changing SPECS: `node dist/relevance/build-judgements.js` (build-judgements.spec.ts checks that
 * the committed file is what it writes).
 * Beside them, 46 queries written by hand as travellers type them, not from the generator's word
 * lists, graded alike: `traveller_cross_language` (the query in one language, judged on the offers
 * in the others), `traveller_synonym` (words the catalogue does not use for the thing) and
 * `mixed_or_italian` (Italian, or words of two languages in one query; the catalogue has no
 * Italian offer, so every offer is judged). Each query names its language, the one its
 * writer meant (docs/relevance-multilingual.md, "The search's language"): an exact name's is its
 * offer's, the cross-language queries' the one they were written in, the others' by that rule
 * (`null`: none); the relevance command grades the same answers a second time, the search's
 * language first.
 */
/** The query types of the judged set (relevance.ts reads them; kept here so the set stands alone). */
type QueryType =
  | 'exact_name'
  | 'destination_theme'
  | 'short_word'
  | 'accents'
  | 'typo'
  | 'synonym'
  | 'cross_language'
  | 'long'
  | 'traveller_cross_language'
  | 'traveller_synonym'
  | 'mixed_or_italian';

type Language = 'fr' | 'de' | 'en' | 'it';

/** The types whose queries are judged on the offers in the other languages than the query's. */
const CROSS_LANGUAGE_TYPES: readonly QueryType[] = ['cross_language', 'traveller_cross_language'];

export interface JudgedQuery {
  type: QueryType;
  query: string;
  /** The language its writer meant; `null`: none. */
  language: Language | null;
  /** Offer id → grade (2 highly relevant, 1 relevant). */
  relevant: Record<string, number>;
}

interface Spec {
  type: QueryType;
  query: string;
  place?: string;
  /** ISO-2 code: any place of that country. */
  country?: string;
  theme?: string;
  name?: string;
  /**
   * The language its writer meant (`null`: none), written for every query but the exact names
   * (their offer's); for CROSS_LANGUAGE_TYPES, offers in it are not judged relevant.
   */
  language?: Language | null;
}

const SPECS: Spec[] = [
  // exact names (filled from the catalogue below)
  { type: 'exact_name', query: '', name: 'TRV-000005' },
  { type: 'exact_name', query: '', name: 'TRV-000123' },
  { type: 'exact_name', query: '', name: 'TRV-000777' },
  { type: 'exact_name', query: '', name: 'TRV-001500' },
  { type: 'exact_name', query: '', name: 'TRV-001999' },
  // destination + theme
  { type: 'destination_theme', query: 'ski Zermatt', language: null, place: 'Zermatt', theme: 'ski' },
  { type: 'destination_theme', query: 'ski Tirol', language: 'de', place: 'Tirol', theme: 'ski' },
  { type: 'destination_theme', query: 'beach Naxos', language: 'en', place: 'Naxos', theme: 'beach' },
  { type: 'destination_theme', query: 'Kultur Praha', language: 'de', place: 'Praha', theme: 'culture' },
  {
    type: 'destination_theme',
    query: 'gastronomie Schwarzwald',
    language: 'de',
    place: 'Schwarzwald',
    theme: 'gastronomy',
  },
  {
    type: 'destination_theme',
    query: 'wellness Salzburg',
    language: null,
    place: 'Salzburg',
    theme: 'wellness',
  },
  {
    type: 'destination_theme',
    query: 'cycling Amsterdam',
    language: 'en',
    place: 'Amsterdam',
    theme: 'cycling',
  },
  // short words
  { type: 'short_word', query: 'Paris', language: null, place: 'Paris' },
  { type: 'short_word', query: 'Sylt', language: null, place: 'Sylt' },
  { type: 'short_word', query: 'Oslo', language: null, place: 'Oslo' },
  { type: 'short_word', query: 'Hvar', language: null, place: 'Hvar' },
  { type: 'short_word', query: 'Nice', language: null, place: 'Nice' },
  { type: 'short_word', query: 'Porto', language: null, place: 'Porto' },
  // accents left out
  { type: 'accents', query: 'Zurich', language: null, place: 'Zürich' },
  { type: 'accents', query: 'Reykjavik', language: null, place: 'Reykjavík' },
  { type: 'accents', query: 'Malaga', language: null, place: 'Málaga' },
  { type: 'accents', query: 'Tromso', language: null, place: 'Tromsø' },
  { type: 'accents', query: 'Geneve', language: 'fr', place: 'Genève' },
  { type: 'accents', query: 'Koln', language: 'de', place: 'Köln' },
  { type: 'accents', query: 'Muenchen', language: 'de', place: 'München' },
  // typos
  { type: 'typo', query: 'Zermat', language: null, place: 'Zermatt' },
  { type: 'typo', query: 'Barcleona', language: null, place: 'Barcelona' },
  { type: 'typo', query: 'Santorni', language: null, place: 'Santorini' },
  { type: 'typo', query: 'Dubrovnk', language: null, place: 'Dubrovnik' },
  { type: 'typo', query: 'Interlakn', language: null, place: 'Interlaken' },
  { type: 'typo', query: 'Amsterdm', language: null, place: 'Amsterdam' },
  { type: 'typo', query: 'Edinburg', language: null, place: 'Edinburgh' },
  // synonyms (no shared word with the offers)
  { type: 'synonym', query: 'snowboard holiday', language: 'en', theme: 'ski' },
  { type: 'synonym', query: 'trekking', language: null, theme: 'hiking' },
  { type: 'synonym', query: 'food tour', language: 'en', theme: 'gastronomy' },
  { type: 'synonym', query: 'spa retreat', language: 'en', theme: 'wellness' },
  { type: 'synonym', query: 'bike tour', language: 'en', theme: 'cycling' },
  { type: 'synonym', query: 'rail journey', language: 'en', theme: 'train' },
  // another language than the offers'
  { type: 'cross_language', query: 'ski week Tirol', place: 'Tirol', theme: 'ski', language: 'en' },
  { type: 'cross_language', query: 'randonnée Bergen', place: 'Bergen', theme: 'hiking', language: 'fr' },
  {
    type: 'cross_language',
    query: 'Strandurlaub Naxos',
    place: 'Naxos',
    theme: 'beach',
    language: 'de',
  },
  {
    type: 'cross_language',
    query: 'cooking class Schwarzwald',
    place: 'Schwarzwald',
    theme: 'gastronomy',
    language: 'en',
  },
  { type: 'cross_language', query: 'vacances à la plage', theme: 'beach', language: 'fr' },
  // up to 15 of each type, and the long queries
  { type: 'exact_name', query: '', name: 'TRV-000042' },
  { type: 'exact_name', query: '', name: 'TRV-000250' },
  { type: 'exact_name', query: '', name: 'TRV-000333' },
  { type: 'exact_name', query: '', name: 'TRV-000404' },
  { type: 'exact_name', query: '', name: 'TRV-000512' },
  { type: 'exact_name', query: '', name: 'TRV-000640' },
  { type: 'exact_name', query: '', name: 'TRV-000888' },
  { type: 'exact_name', query: '', name: 'TRV-001024' },
  { type: 'exact_name', query: '', name: 'TRV-001234' },
  { type: 'exact_name', query: '', name: 'TRV-001313' },
  {
    type: 'destination_theme',
    query: 'Städtereise Wien',
    language: 'de',
    place: 'Wien',
    theme: 'city-break',
  },
  { type: 'destination_theme', query: 'Wanderferien Tirol', language: 'de', place: 'Tirol', theme: 'hiking' },
  { type: 'destination_theme', query: 'Skiferien Chamonix', language: 'de', place: 'Chamonix', theme: 'ski' },
  {
    type: 'destination_theme',
    query: 'croisière Algarve',
    language: 'fr',
    place: 'Algarve',
    theme: 'cruise',
  },
  {
    type: 'destination_theme',
    query: 'safari Yellowstone',
    language: null,
    place: 'Yellowstone',
    theme: 'wildlife',
  },
  { type: 'destination_theme', query: 'vélo Toscana', language: 'fr', place: 'Toscana', theme: 'cycling' },
  { type: 'destination_theme', query: 'family Kruger', language: 'en', place: 'Kruger', theme: 'family' },
  {
    type: 'destination_theme',
    query: 'cuisine Marrakech',
    language: null,
    place: 'Marrakech',
    theme: 'gastronomy',
  },
  { type: 'short_word', query: 'Lofoten', language: null, place: 'Lofoten' },
  { type: 'short_word', query: 'Kreta', language: 'de', place: 'Kreta' },
  { type: 'short_word', query: 'Patagonia', language: null, place: 'Patagonia' },
  { type: 'short_word', query: 'Marrakech', language: null, place: 'Marrakech' },
  { type: 'short_word', query: 'Zanzibar', language: null, place: 'Zanzibar' },
  { type: 'short_word', query: 'Yellowstone', language: null, place: 'Yellowstone' },
  { type: 'short_word', query: 'Safari', language: null, theme: 'wildlife' },
  { type: 'short_word', query: 'Kreuzfahrt', language: 'de', theme: 'cruise' },
  { type: 'short_word', query: 'Randonnée', language: 'fr', theme: 'hiking' },
  { type: 'accents', query: 'Zuerich', language: 'de', place: 'Zürich' },
  { type: 'accents', query: 'Duesseldorf', language: null, place: 'Düsseldorf' },
  { type: 'accents', query: 'Ruegen', language: null, place: 'Rügen' },
  { type: 'accents', query: 'Goeteborg', language: null, place: 'Göteborg' },
  { type: 'accents', query: 'Oesterreich', language: 'de', country: 'AT' },
  { type: 'accents', query: 'Cordoba', language: null, place: 'Córdoba' },
  { type: 'accents', query: 'Tokyo', language: null, place: 'Tōkyō' },
  { type: 'accents', query: 'Krakow', language: null, place: 'Kraków' },
  { type: 'typo', query: 'Patagonai roadtrip', language: null, place: 'Patagonia', theme: 'road-trip' },
  { type: 'typo', query: 'Islnd', language: 'de', country: 'IS' },
  { type: 'typo', query: 'Innsbruk', language: null, place: 'Innsbruck' },
  { type: 'typo', query: 'Grindelwad', language: null, place: 'Grindelwald' },
  { type: 'typo', query: 'Marakech', language: null, place: 'Marrakech' },
  { type: 'typo', query: 'Hallstat', language: null, place: 'Hallstatt' },
  { type: 'typo', query: 'Lofotn', language: null, place: 'Lofoten' },
  { type: 'typo', query: 'randonée Chamonix', language: 'fr', place: 'Chamonix', theme: 'hiking' },
  { type: 'synonym', query: 'Zugfahrt', language: 'de', theme: 'train' },
  { type: 'synonym', query: 'Schlemmerreise', language: 'de', theme: 'gastronomy' },
  { type: 'synonym', query: 'Segelurlaub', language: 'de', theme: 'cruise' },
  { type: 'synonym', query: 'Kinderurlaub', language: 'de', theme: 'family' },
  { type: 'synonym', query: 'thalasso', language: 'fr', theme: 'wellness' },
  { type: 'synonym', query: 'vacances au soleil', language: 'fr', theme: 'beach' },
  { type: 'synonym', query: 'escalade et rafting', language: 'fr', theme: 'adventure' },
  { type: 'synonym', query: 'animal watching', language: 'en', theme: 'wildlife' },
  { type: 'synonym', query: 'car hire holiday', language: 'en', theme: 'road-trip' },
  { type: 'cross_language', query: 'hiking Serengeti', place: 'Serengeti', theme: 'hiking', language: 'en' },
  {
    type: 'cross_language',
    query: 'gastronomie Zanzibar',
    place: 'Zanzibar',
    theme: 'gastronomy',
    language: 'fr',
  },
  { type: 'cross_language', query: 'Kultur Kreta', place: 'Kreta', theme: 'culture', language: 'de' },
  {
    type: 'cross_language',
    query: 'culture Patagonia',
    place: 'Patagonia',
    theme: 'culture',
    language: 'en',
  },
  { type: 'cross_language', query: 'faune Kruger', place: 'Kruger', theme: 'wildlife', language: 'fr' },
  {
    type: 'cross_language',
    query: 'Radreise Amsterdam',
    place: 'Amsterdam',
    theme: 'cycling',
    language: 'de',
  },
  {
    type: 'cross_language',
    query: 'scenic train Dolomiti',
    place: 'Dolomiti',
    theme: 'train',
    language: 'en',
  },
  {
    type: 'cross_language',
    query: 'bien-être Dubrovnik',
    place: 'Dubrovnik',
    theme: 'wellness',
    language: 'fr',
  },
  {
    type: 'cross_language',
    query: 'Familienurlaub Patagonia',
    place: 'Patagonia',
    theme: 'family',
    language: 'de',
  },
  {
    type: 'cross_language',
    query: 'food and wine Kyōto',
    place: 'Kyōto',
    theme: 'gastronomy',
    language: 'en',
  },
  // long natural-language queries
  {
    type: 'long',
    query: 'Wir möchten mit dem Mietwagen durch Norwegen fahren und die Fjorde sehen',
    language: 'de',
    country: 'NO',
    theme: 'road-trip',
  },
  {
    type: 'long',
    query: 'une semaine de randonnée en Suisse avec vue sur le Cervin',
    language: 'fr',
    country: 'CH',
    theme: 'hiking',
  },
  {
    type: 'long',
    query: 'looking for a relaxing beach holiday on a greek island with my partner',
    language: 'en',
    country: 'GR',
    theme: 'beach',
  },
  {
    type: 'long',
    query: 'nous cherchons des vacances en famille au bord de la mer en Croatie',
    language: 'fr',
    country: 'HR',
    theme: 'family',
  },
  {
    type: 'long',
    query: 'Wir suchen eine Kulturreise nach Roma mit Museen und alten Denkmälern',
    language: 'de',
    place: 'Roma',
    theme: 'culture',
  },
  {
    type: 'long',
    query: 'I want to go skiing in Austria for a week in February',
    language: 'en',
    country: 'AT',
    theme: 'ski',
  },
  {
    type: 'long',
    query: 'cooking classes and wine tasting somewhere in Kyoto',
    language: 'en',
    place: 'Kyōto',
    theme: 'gastronomy',
  },
  {
    type: 'long',
    query: 'un voyage en train panoramique à travers la Suisse',
    language: 'fr',
    country: 'CH',
    theme: 'train',
  },
  {
    type: 'long',
    query: 'Radurlaub mit dem E-Bike am Bodensee für zwei Personen',
    language: 'de',
    place: 'Bodensee',
    theme: 'cycling',
  },
  {
    type: 'long',
    query: 'a safari in Kenya to see lions and elephants',
    language: 'en',
    country: 'KE',
    theme: 'wildlife',
  },
  {
    type: 'long',
    query: 'je voudrais faire un road trip en Islande pour voir les volcans',
    language: 'fr',
    country: 'IS',
    theme: 'road-trip',
  },
  {
    type: 'long',
    query: 'ruhige Wellnesstage mit Sauna und Massagen in Österreich',
    language: 'de',
    country: 'AT',
    theme: 'wellness',
  },
  {
    type: 'long',
    query: 'a weekend city break in Amsterdam with museums and canals',
    language: 'en',
    place: 'Amsterdam',
    theme: 'city-break',
  },
  {
    type: 'long',
    query: 'croisière en voilier dans les îles grecques avec baignades',
    language: 'fr',
    country: 'GR',
    theme: 'cruise',
  },
  {
    type: 'long',
    query: 'Abenteuerurlaub mit Kajak und Zelt in Neuseeland',
    language: 'de',
    country: 'NZ',
    theme: 'adventure',
  },
  // written by hand as travellers type them, not from the generator's word lists
  {
    type: 'traveller_cross_language',
    query: 'Wanderung Grindelwald',
    place: 'Grindelwald',
    theme: 'hiking',
    language: 'de',
  },
  {
    type: 'traveller_cross_language',
    query: 'Bergwanderung Chamonix',
    place: 'Chamonix',
    theme: 'hiking',
    language: 'de',
  },
  {
    type: 'traveller_cross_language',
    query: 'Fahrradtour Budapest',
    place: 'Budapest',
    theme: 'cycling',
    language: 'de',
  },
  {
    type: 'traveller_cross_language',
    query: 'Kochkurs Lyon',
    place: 'Lyon',
    theme: 'gastronomy',
    language: 'de',
  },
  {
    type: 'traveller_cross_language',
    query: 'Zugreise Wachau',
    place: 'Wachau',
    theme: 'train',
    language: 'de',
  },
  {
    type: 'traveller_cross_language',
    query: 'Tiere beobachten Masai Mara',
    place: 'Masai Mara',
    theme: 'wildlife',
    language: 'de',
  },
  {
    type: 'traveller_cross_language',
    query: 'walking holiday Rotorua',
    place: 'Rotorua',
    theme: 'hiking',
    language: 'en',
  },
  {
    type: 'traveller_cross_language',
    query: 'bike tour Toscana',
    place: 'Toscana',
    theme: 'cycling',
    language: 'en',
  },
  {
    type: 'traveller_cross_language',
    query: 'wine tasting Bordeaux',
    place: 'Bordeaux',
    theme: 'gastronomy',
    language: 'en',
  },
  {
    type: 'traveller_cross_language',
    query: 'thermal baths Budapest',
    place: 'Budapest',
    theme: 'wellness',
    language: 'en',
  },
  {
    type: 'traveller_cross_language',
    query: 'randonnée en montagne Banff',
    place: 'Banff',
    theme: 'hiking',
    language: 'fr',
  },
  {
    type: 'traveller_cross_language',
    query: 'vacances en famille Queenstown',
    place: 'Queenstown',
    theme: 'family',
    language: 'fr',
  },
  {
    type: 'traveller_cross_language',
    query: 'voiture de location Uluru',
    place: 'Uluru',
    theme: 'road-trip',
    language: 'fr',
  },
  {
    type: 'traveller_cross_language',
    query: 'croisière en voilier Praslin',
    place: 'Praslin',
    theme: 'cruise',
    language: 'fr',
  },
  {
    type: 'traveller_cross_language',
    query: 'dégustation de vin Praha',
    place: 'Praha',
    theme: 'gastronomy',
    language: 'fr',
  },
  { type: 'traveller_synonym', query: 'Fahrradurlaub', language: 'de', theme: 'cycling' },
  { type: 'traveller_synonym', query: 'biking vacation', language: 'en', theme: 'cycling' },
  { type: 'traveller_synonym', query: 'mountain walks', language: 'en', theme: 'hiking' },
  { type: 'traveller_synonym', query: 'Wochenende in der Stadt', language: 'de', theme: 'city-break' },
  { type: 'traveller_synonym', query: 'bord de mer', language: 'fr', theme: 'beach' },
  { type: 'traveller_synonym', query: 'Badeurlaub', language: 'de', theme: 'beach' },
  { type: 'traveller_synonym', query: 'Museumsbesuche', language: 'de', theme: 'culture' },
  { type: 'traveller_synonym', query: 'remise en forme', language: 'fr', theme: 'wellness' },
  { type: 'traveller_synonym', query: 'Schiffsreise', language: 'de', theme: 'cruise' },
  { type: 'traveller_synonym', query: 'boat trip', language: 'en', theme: 'cruise' },
  { type: 'traveller_synonym', query: 'Autoreise', language: 'de', theme: 'road-trip' },
  { type: 'traveller_synonym', query: 'Schneeferien', language: 'de', theme: 'ski' },
  { type: 'traveller_synonym', query: 'birdwatching', language: 'en', theme: 'wildlife' },
  { type: 'traveller_synonym', query: 'white water rafting', language: 'en', theme: 'adventure' },
  { type: 'traveller_synonym', query: 'Ferien mit Kleinkindern', language: 'de', theme: 'family' },
  { type: 'traveller_synonym', query: 'thermes', language: 'fr', theme: 'wellness' },
  {
    type: 'mixed_or_italian',
    query: 'escursioni in montagna Banff',
    language: 'it',
    place: 'Banff',
    theme: 'hiking',
  },
  {
    type: 'mixed_or_italian',
    query: 'settimana bianca Zermatt',
    language: 'it',
    place: 'Zermatt',
    theme: 'ski',
  },
  {
    type: 'mixed_or_italian',
    query: 'vacanze al mare Tenerife',
    language: 'it',
    place: 'Tenerife',
    theme: 'beach',
  },
  {
    type: 'mixed_or_italian',
    query: 'in bicicletta Galway',
    language: 'it',
    place: 'Galway',
    theme: 'cycling',
  },
  {
    type: 'mixed_or_italian',
    query: 'degustazione vini Schwarzwald',
    language: 'it',
    place: 'Schwarzwald',
    theme: 'gastronomy',
  },
  {
    type: 'mixed_or_italian',
    query: 'famiglia con bambini Antalya',
    language: 'it',
    place: 'Antalya',
    theme: 'family',
  },
  {
    type: 'mixed_or_italian',
    query: 'crociera Santorini',
    language: 'it',
    place: 'Santorini',
    theme: 'cruise',
  },
  {
    type: 'mixed_or_italian',
    query: 'viaggio in treno Tasmania',
    language: 'it',
    place: 'Tasmania',
    theme: 'train',
  },
  {
    type: 'mixed_or_italian',
    query: 'benessere e terme Salzburg',
    language: 'it',
    place: 'Salzburg',
    theme: 'wellness',
  },
  {
    type: 'mixed_or_italian',
    query: 'safari fotografico Kenya',
    language: 'it',
    country: 'KE',
    theme: 'wildlife',
  },
  {
    type: 'mixed_or_italian',
    query: 'ski chalet Tirol Winterurlaub',
    language: 'de',
    place: 'Tirol',
    theme: 'ski',
  },
  {
    type: 'mixed_or_italian',
    query: 'randonnée Wanderung Grindelwald',
    language: null,
    place: 'Grindelwald',
    theme: 'hiking',
  },
  { type: 'mixed_or_italian', query: 'beach Urlaub Naxos', language: null, place: 'Naxos', theme: 'beach' },
  {
    type: 'mixed_or_italian',
    query: 'city trip Wien Museen',
    language: 'de',
    place: 'Wien',
    theme: 'city-break',
  },
  {
    type: 'mixed_or_italian',
    query: 'road trip en voiture Norwegen',
    language: 'fr',
    country: 'NO',
    theme: 'road-trip',
  },
];

function judge(spec: Spec, catalogue: CatalogueRecord[]): JudgedQuery {
  const placeOf = (offer: CatalogueRecord) => (offer.photos as { alt: string }[] | undefined)?.[0]?.alt;
  const themes = (offer: CatalogueRecord) => (offer.categories ?? []).map((c) => c.slug);
  const countryPlaces = spec.country
    ? new Set(
        (COUNTRIES.find((country) => country.code === spec.country)?.places ?? []).map((p) =>
          p.replace(/^~/, ''),
        ),
      )
    : undefined;
  if (countryPlaces && !countryPlaces.size) throw new Error(`no country ${spec.country}`);
  const located = (offer: CatalogueRecord) =>
    countryPlaces
      ? countryPlaces.has(placeOf(offer) ?? '')
      : spec.place === undefined || placeOf(offer) === spec.place;
  const localised = spec.place !== undefined || countryPlaces !== undefined;
  const relevant: Record<string, number> = {};
  let query = spec.query;
  let language = spec.language;
  if ((spec.type === 'exact_name') === Object.keys(spec).includes('language')) {
    throw new Error(`${spec.query || spec.name}: a language for every query but the exact names`);
  }
  if (spec.type === 'exact_name') {
    const target = catalogue.find((offer) => offer.id === spec.name);
    if (!target) throw new Error(`no ${spec.name}`);
    query = target.name;
    language = target.language as Language;
    for (const offer of catalogue) {
      if (offer.name === target.name) relevant[offer.id] = 2;
      else if (placeOf(offer) === placeOf(target) && themes(offer)[0] === themes(target)[0])
        relevant[offer.id] = 1;
    }
  } else {
    for (const offer of catalogue) {
      if (CROSS_LANGUAGE_TYPES.includes(spec.type) && offer.language === spec.language) continue;
      const placeMatch = located(offer);
      const primary = spec.theme === undefined || themes(offer)[0] === spec.theme;
      const anyTheme = spec.theme === undefined || themes(offer).includes(spec.theme);
      if (placeMatch && primary) relevant[offer.id] = 2;
      else if (localised && placeMatch) relevant[offer.id] = 1;
      else if (!localised && anyTheme) relevant[offer.id] = 1;
    }
  }
  return { type: spec.type, query, language: language ?? null, relevant };
}

/** The judged queries of the demo catalogue, as judged-queries.json holds them. */
export function judgedQueries(): JudgedQuery[] {
  const catalogue = [...generateCatalogue({ count: 2000 })];
  return SPECS.map((spec) => judge(spec, catalogue));
}

function main(): void {
  const judged = judgedQueries();
  for (const q of judged) {
    const grades = Object.values(q.relevant);
    console.log(
      `${q.type}\t${q.query}\t${grades.filter((g) => g === 2).length}×2 ${grades.filter((g) => g === 1).length}×1`,
    );
    if (!grades.includes(2)) throw new Error(`nothing highly relevant for ${q.query}`);
  }
  for (const type of new Set(judged.map((q) => q.type))) {
    const count = judged.filter((q) => q.type === type).length;
    if (count < 15) throw new Error(`${type}: ${count} queries, fewer than 15`);
  }
  const out = join(__dirname, '..', '..', 'src', 'relevance', 'judged-queries.json');
  writeFileSync(
    out,
    JSON.stringify(
      { catalogue: 'generated:2000', generatedBy: 'src/relevance/build-judgements.ts', queries: judged },
      null,
      1,
    ) + '\n',
  );
  console.log(`wrote ${judged.length} queries to ${out}`);
}

if (require.main === module) main();
