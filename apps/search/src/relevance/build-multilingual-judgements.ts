import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { languageFirstGrades, NO_ANSWER_TYPES, SEARCH_LANGUAGES } from './relevance';
import type { SearchLanguage } from './relevance';

/**
 * Writes judged-multilingual.json: searches typed as travellers type them in French,
 * German, English and Italian, judged on a hand-written catalogue of offers in those four languages
 * (multilingual-catalogue.ndjson), before any change to the ranking. Judgements come from the
 * offers' annotations (multilingual-annotations.json: each offer's places, country and the
 * concepts it really offers, written by hand from what the offer is, not from the service's
 * glossary) and from each query's places and concepts below, also written by hand; never from a
 * ranker.
 *
 * Grades: 2 when the offer is in every place of the query (a place or anything inside it, through
 * the annotations' gazetteer: Zermatt is in Valais, Valais in Switzerland) and covers every concept
 * (the concept itself or a narrower one, NARROWER); 1 when it is in the places and covers only part
 * of the concepts (a query naming a place: the place alone counts, as in the committed set), or,
 * for a query without a place, covers at least one of its concepts; otherwise 0 (not listed). A
 * concept written `a|b` is covered by either. Queries of the types `nonsense` and
 * `words_function_word` grade no offer: their success is answering nothing (relevance.ts
 * NO_ANSWER_TYPES).
 *
 * Each query names the language its writer meant (`language`, undefined for none), by the rule of
 * docs/relevance-multilingual.md, "The search's language": the judged set carries it, and the
 * relevance command grades the same answers a second time, the search's language first
 * (relevance.ts languageFirstGrades, from the offers' `language` in the catalogue). After QUERIES
 * come the searches of TRAVELLER_QUERIES, typed as travellers type them, one `traveller_*` type per kind,
 * then those of WORDS_QUERIES, one `words_*` type per kind of the traveller's words, then those of
 * WORLD_QUERIES, one `world_*` type per kind of place (a region, a kind of place, a town no offer
 * names, a place with no offer), judged through the places `near` the one they name when no offer
 * names it (gradeOf).
 *
 * Run after changing the annotations, the catalogue or the queries:
 * `pnpm --filter search build && node dist/relevance/build-multilingual-judgements.js` (from
 * apps/search). It checks the three files against each other and prints each query's grades.
 */

type Language = SearchLanguage;

/** The query types of this set (relevance.ts QUERY_TYPES holds them). */
type QueryType =
  | 'cross_language'
  | 'concept'
  | 'compound'
  | 'homonym'
  | 'destination'
  | 'nonsense'
  | 'traveller_short'
  | 'traveller_unaccented'
  | 'traveller_transposed'
  | 'traveller_departure_city'
  | 'traveller_own_word'
  | 'traveller_multiword'
  | 'traveller_unknown_word'
  | 'traveller_short_typo'
  | 'words_language_first'
  | 'words_loanword_typo'
  | 'words_real_word'
  | 'words_function_word'
  | 'words_sentence'
  | 'words_own_synonym'
  | 'words_item_theme'
  | 'words_frequent_theme'
  | 'words_compound_offer'
  | 'world_region'
  | 'world_kind_of_place'
  | 'world_town_unnamed'
  | 'world_no_offer';

/** True for a type whose queries grade no offer (relevance.ts NO_ANSWER_TYPES). */
const answersNothing = (type: QueryType): boolean => NO_ANSWER_TYPES.includes(type);

export interface QuerySpec {
  type: QueryType;
  query: string;
  /**
   * The language its writer meant, written for every query: undefined for none (a nonsense or
   * language-neutral search; docs/relevance-multilingual.md, "The search's language").
   */
  language: Language | undefined;
  /** Place ids of the annotations' gazetteer; the offer must be in every one. */
  places?: string[];
  /** Concept ids; `a|b`: either. */
  concepts?: string[];
  /**
   * Places near the one the search names, when no offer names it (a town inside a region offers
   * name) or no offer is in it (a country the catalogue holds nothing in): an offer in one of them
   * counts as in the searched place (gradeOf).
   */
  near?: string[];
}

export interface PlaceEntry {
  name: string;
  country: string;
  /** The places it is part of (several for a lake shared by two cantons or countries). */
  in: string[];
}

export interface OfferAnnotation {
  name: string;
  language: string;
  country: string;
  places: string[];
  concepts: string[];
}

export interface Annotations {
  places: Record<string, PlaceEntry>;
  offers: Record<string, OfferAnnotation>;
}

/**
 * Broader concepts and the narrower ones they include: a broader concept of a query is covered by
 * an offer of any of its narrower ones (a search for winter sports is answered by a ski week),
 * never the reverse.
 */
export const NARROWER: Record<string, string[]> = {
  winter_sports: ['skiing', 'cross_country_skiing', 'ski_touring', 'snowboarding', 'snowshoeing', 'sledging'],
  water_sports: [
    'sailing',
    'surfing',
    'windsurfing',
    'kitesurfing',
    'kayaking',
    'canoeing',
    'stand_up_paddle',
    'rafting',
    'diving',
    'snorkelling',
  ],
  cycling: ['mountain_biking', 'e_biking'],
  wellness: ['thermal_baths', 'yoga'],
  gastronomy: ['wine_tasting', 'cooking_class'],
  wildlife: ['whale_watching'],
};

/** Every concept an offer may be annotated with (the broader ones of NARROWER only as queried). */
export const OFFER_CONCEPTS = new Set(
  (
    'skiing cross_country_skiing ski_touring snowboarding snowshoeing sledging hiking climbing canyoning ' +
    'cycling mountain_biking e_biking sailing surfing windsurfing kitesurfing kayaking canoeing ' +
    'stand_up_paddle rafting diving snorkelling beach city_break wellness thermal_baths yoga culture ' +
    'gastronomy wine_tasting cooking_class train_journey cruise family couples mountains lake seaside ' +
    'glacier christmas_market road_trip camping horse_riding paragliding golf adventure nature ' +
    'whale_watching northern_lights island_hopping events wildlife'
  ).split(' '),
);

const cl = (
  query: string,
  language: Language | undefined,
  places: string[],
  concepts: string[],
): QuerySpec => ({
  type: 'cross_language',
  query,
  language,
  places,
  concepts,
});
const concept = (
  query: string,
  language: Language | undefined,
  concepts: string[],
  places?: string[],
): QuerySpec => ({
  type: 'concept',
  query,
  language,
  concepts,
  places,
});
const compound = (query: string, concepts: string[], places?: string[]): QuerySpec => ({
  type: 'compound',
  query,
  language: 'de',
  concepts,
  places,
});
const homonym = (
  query: string,
  language: Language | undefined,
  places: string[],
  concepts: string[],
): QuerySpec => ({
  type: 'homonym',
  query,
  language,
  places,
  concepts,
});
const destination = (query: string, language: Language | undefined, place: string): QuerySpec => ({
  type: 'destination',
  query,
  language,
  places: [place],
});
const nonsense = (query: string): QuerySpec => ({ type: 'nonsense', query, language: undefined });

/**
 * The set's first queries, written by hand as travellers type them: lower case, accents left out, the
 * words of everyday use (src/query/glossary/language-guess.spec.ts measures the language guess on them).
 */
export const QUERIES: QuerySpec[] = [
  // a destination and a concept, the destination in the traveller's own language
  cl('skiferien im wallis', 'de', ['valais'], ['skiing']),
  cl('ski holiday valais', 'en', ['valais'], ['skiing']),
  cl('sciare in vallese', 'it', ['valais'], ['skiing']),
  cl('strand korsika', 'de', ['corsica'], ['beach']),
  cl('vacanze al mare in corsica', 'it', ['corsica'], ['beach']),
  cl('randonnee en corse', 'fr', ['corsica'], ['hiking']),
  cl('wandern im tessin', 'de', ['ticino'], ['hiking']),
  cl('raquettes a neige grisons', 'fr', ['graubuenden'], ['snowshoeing']),
  cl('sci di fondo engadina', 'it', ['engadin'], ['cross_country_skiing']),
  cl('velo lac de constance', 'fr', ['lake_constance'], ['cycling']),
  cl('croisiere lac majeur', 'fr', ['lake_maggiore'], ['cruise']),
  cl('schifffahrt vierwaldstattersee', 'de', ['lake_lucerne'], ['cruise']),
  cl('wine tasting lake geneva', 'en', ['lake_geneva'], ['wine_tasting']),
  cl('weinreise piemont', 'de', ['piedmont'], ['wine_tasting']),
  cl('segeln sardinien', 'de', ['sardinia'], ['sailing']),
  cl('surf canaries', undefined, ['canary_islands'], ['surfing']),
  cl('hiking dolomites', 'en', ['dolomites'], ['hiking']),
  cl('ferrata dolomiti', 'it', ['dolomites'], ['climbing']),
  cl('week end a vienne', 'fr', ['vienna'], ['city_break']),
  cl('weihnachtsmarkt strassburg', 'de', ['strasbourg'], ['christmas_market']),
  cl('aurores boreales laponie', 'fr', ['lapland'], ['northern_lights']),
  cl('vacanze in famiglia oberland bernese', 'it', ['bernese_oberland'], ['family']),
  cl('bike tour south tyrol', 'en', ['south_tyrol'], ['cycling']),
  cl('bains thermaux valais', 'fr', ['valais'], ['thermal_baths']),
  cl('wandern schottland', 'de', ['scotland'], ['hiking']),
  cl('vacances ski autriche', 'fr', ['austria'], ['skiing']),
  cl('trekking nei grigioni', 'it', ['graubuenden'], ['hiking']),
  cl('nordlichter norwegen', 'de', ['norway'], ['northern_lights']),
  // synonyms and broader concepts
  concept('sport invernali con bambini', 'it', ['winter_sports', 'family']),
  concept('winter sports', 'en', ['winter_sports']),
  concept('sports nautiques', 'fr', ['water_sports']),
  concept('water sports lake garda', 'en', ['water_sports'], ['lake_garda']),
  concept('wassersport am meer', 'de', ['water_sports', 'seaside']),
  concept('escapade citadine', 'fr', ['city_break']),
  concept('spa weekend', 'en', ['wellness']),
  concept('terme e benessere', 'it', ['thermal_baths', 'wellness']),
  concept('balade en raquettes', 'fr', ['snowshoeing']),
  concept('slittino', 'it', ['sledging']),
  concept('luge en famille', 'fr', ['sledging', 'family']),
  concept('voilier croatie', 'fr', ['sailing'], ['croatia']),
  concept('observation des baleines', 'fr', ['whale_watching']),
  concept('nordlichter', 'de', ['northern_lights']),
  concept('velo electrique', 'fr', ['e_biking']),
  concept('vtt', 'fr', ['mountain_biking']),
  concept('train panoramique alpes', 'fr', ['train_journey', 'mountains']),
  concept('cours de cuisine italie', 'fr', ['cooking_class'], ['italy']),
  concept('oenotourisme', 'fr', ['wine_tasting']),
  concept('sea kayaking', 'en', ['kayaking', 'seaside']),
  concept('yoga retreat', 'en', ['yoga']),
  concept('glacier hike', 'en', ['hiking', 'glacier']),
  concept('family holiday in the mountains', 'en', ['family', 'mountains']),
  concept('wellness', undefined, ['wellness']),
  concept('mit dem zug durch die alpen', 'de', ['train_journey', 'mountains']),
  // German compounds
  compound('segelurlaub', ['sailing']),
  compound('wintersportferien', ['winter_sports']),
  compound('wintersport', ['winter_sports']),
  compound('schneeschuhwanderung', ['snowshoeing']),
  compound('kajaktour', ['kayaking']),
  compound('surfurlaub portugal', ['surfing'], ['portugal']),
  compound('radwanderung bodensee', ['cycling'], ['lake_constance']),
  compound('wellnesswochenende', ['wellness']),
  compound('gletscherwanderung', ['hiking', 'glacier']),
  compound('schlittelplausch', ['sledging']),
  compound('langlaufwoche goms', ['cross_country_skiing'], ['goms']),
  compound('inselhupfen kykladen', ['island_hopping'], ['cyclades']),
  compound('tauchferien', ['diving']),
  compound('familienskiferien', ['family', 'skiing']),
  compound('kletterferien', ['climbing']),
  compound('weinreise', ['wine_tasting']),
  compound('fjordkreuzfahrt', ['cruise'], ['norwegian_fjords']),
  compound('thermalbad', ['thermal_baths']),
  compound('wassersportferien', ['water_sports']),
  compound('bergwandern', ['hiking', 'mountains']),
  // a word of one language that is another word (or a place) in another
  homonym('wanderung in den bergen', 'de', [], ['hiking', 'mountains']),
  homonym('urlaub in den bergen', 'de', [], ['mountains']),
  homonym('wanderung am see', 'de', [], ['hiking', 'lake']),
  homonym('ferien am see', 'de', [], ['lake']),
  homonym('bergen norwegen', 'de', ['bergen'], []),
  homonym('nice', undefined, ['nice'], []),
  homonym('spa', undefined, [], ['wellness']),
  homonym('ferien in zug', 'de', ['zug'], []),
  homonym('brig', undefined, ['brig'], []),
  homonym('gruyere', undefined, ['gruyere'], []),
  homonym('things to see in geneva', 'en', ['geneva'], ['city_break|culture']),
  homonym('urlaub auf elba', 'de', ['elba'], []),
  homonym('island hopping greece', 'en', ['greece'], ['island_hopping']),
  // a place alone, named in another language than most of its offers
  destination('wallis', 'de', 'valais'),
  destination('vallese', 'it', 'valais'),
  destination('korsika', 'de', 'corsica'),
  destination('graubunden', undefined, 'graubuenden'),
  destination('lac leman', 'fr', 'lake_geneva'),
  destination('lago dei quattro cantoni', 'it', 'lake_lucerne'),
  destination('sudtirol', 'de', 'south_tyrol'),
  destination('haut adige', 'fr', 'south_tyrol'),
  destination('sardaigne', 'fr', 'sardinia'),
  destination('toskana', 'de', 'tuscany'),
  destination('kanarische inseln', 'de', 'canary_islands'),
  destination('ecosse', 'fr', 'scotland'),
  destination('lapponia', 'it', 'lapland'),
  destination('aostatal', 'de', 'aosta_valley'),
  destination('oberland bernois', 'fr', 'bernese_oberland'),
  destination('engadina', 'it', 'engadin'),
  destination('loeche les bains', 'fr', 'leukerbad'),
  destination('azoren', 'de', 'azores'),
  destination('sizilien', 'de', 'sicily'),
  destination('dalmatie', 'fr', 'dalmatia'),
  destination('costa azzurra', 'it', 'cote_d_azur'),
  destination('genf', 'de', 'geneva'),
  // random strings: nothing is relevant, success is answering nothing
  nonsense('xyzzyqqq'),
  nonsense('qwrtzpl'),
  nonsense('blorfingax'),
  nonsense('zzkkvvx'),
  nonsense('mnbvcxyq'),
  nonsense('fjqowpzx'),
  nonsense('plumbixtrazon'),
  nonsense('vvxqq jjkw'),
  nonsense('asdfghjkl'),
  nonsense('hjkqwxz trvlm'),
  nonsense('ooqqzzuu'),
  nonsense('grzlmpft'),
];

const typed = (
  type: QueryType,
  query: string,
  language: Language | undefined,
  concepts: string[],
  places?: string[],
): QuerySpec => ({ type, query, language, concepts, places });

/**
 * Searches as travellers type them, of the kinds the ranking was found weak on,
 * written before any change to the ranking; judged by the same rules as QUERIES.
 */
export const TRAVELLER_QUERIES: QuerySpec[] = [
  // one short word
  typed('traveller_short', 'ski', undefined, ['skiing']),
  typed('traveller_short', 'sci', 'it', ['skiing']),
  typed('traveller_short', 'rando', 'fr', ['hiking']),
  typed('traveller_short', 'lac', 'fr', ['lake']),
  typed('traveller_short', 'meer', 'de', ['seaside']),
  typed('traveller_short', 'surf', undefined, ['surfing']),
  typed('traveller_short', 'velo', undefined, ['cycling']),
  // accents typed without accents
  typed('traveller_unaccented', 'randonnee', 'fr', ['hiking']),
  typed('traveller_unaccented', 'croisiere', 'fr', ['cruise']),
  typed('traveller_unaccented', 'plongee', 'fr', ['diving']),
  typed('traveller_unaccented', 'thermalbader', 'de', ['thermal_baths']),
  typed('traveller_unaccented', 'geneve', 'fr', [], ['geneva']),
  typed('traveller_unaccented', 'zurich', undefined, [], ['zurich']),
  typed('traveller_unaccented', 'lotschental', undefined, [], ['loetschental']),
  // two letters swapped, in a name or a word of the catalogue
  typed('traveller_transposed', 'pargue city break', 'en', ['city_break'], ['prague']),
  typed('traveller_transposed', 'vneise week-end', 'fr', ['city_break'], ['venice']),
  typed('traveller_transposed', 'wlaes road trip', undefined, ['road_trip'], ['wales']),
  typed('traveller_transposed', 'zemratt', undefined, [], ['zermatt']),
  typed('traveller_transposed', 'grindewlald', undefined, [], ['grindelwald']),
  typed('traveller_transposed', 'starnd korsika', 'de', ['beach'], ['corsica']),
  typed('traveller_transposed', 'wadnern im tessin', 'de', ['hiking'], ['ticino']),
  // a place the catalogue's descriptions also name as a departure point
  typed('traveller_departure_city', 'zurich randonnee', 'fr', ['hiking'], ['zurich']),
  typed('traveller_departure_city', 'geneve gastronomie', 'fr', ['gastronomy'], ['geneva']),
  typed('traveller_departure_city', 'bale musees', 'fr', ['culture'], ['basel']),
  typed('traveller_departure_city', 'basel kultur', 'de', ['culture'], ['basel']),
  typed('traveller_departure_city', 'genf stadtereise', 'de', ['city_break'], ['geneva']),
  typed('traveller_departure_city', 'zurich city break', 'en', ['city_break'], ['zurich']),
  typed('traveller_departure_city', 'lugano escursioni', 'it', ['hiking'], ['lugano']),
  // the word itself, which its translations must not outrank
  typed('traveller_own_word', 'randonnée', 'fr', ['hiking']),
  typed('traveller_own_word', 'Radtour', 'de', ['cycling']),
  typed('traveller_own_word', 'Wanderferien', 'de', ['hiking']),
  typed('traveller_own_word', 'escursioni', 'it', ['hiking']),
  typed('traveller_own_word', 'croisière', 'fr', ['cruise']),
  typed('traveller_own_word', 'walking holiday', 'en', ['hiking']),
  typed('traveller_own_word', 'vela', 'it', ['sailing']),
  // a concept of several words
  typed('traveller_multiword', 'city break', 'en', ['city_break']),
  typed('traveller_multiword', 'road trip', undefined, ['road_trip']),
  typed('traveller_multiword', 'voyage a velo', 'fr', ['cycling']),
  typed('traveller_multiword', 'ski de fond', 'fr', ['cross_country_skiing']),
  typed('traveller_multiword', "sports d'hiver", 'fr', ['winter_sports']),
  typed('traveller_multiword', 'marche de noel', 'fr', ['christmas_market']),
  typed('traveller_multiword', 'settimana bianca', 'it', ['skiing']),
  // a content word the glossary has no entry for (voile: the example, which it has)
  typed('traveller_unknown_word', 'voile en croatie', 'fr', ['sailing'], ['croatia']),
  typed('traveller_unknown_word', 'catamaran croatie', 'fr', ['sailing'], ['croatia']),
  typed('traveller_unknown_word', 'levadas madere', 'fr', ['hiking'], ['madeira']),
  typed('traveller_unknown_word', 'kitesurf', undefined, ['kitesurfing']),
  typed('traveller_unknown_word', 'snorkel greece', 'en', ['snorkelling'], ['greece']),
  typed('traveller_unknown_word', 'paddle sur le lac', 'fr', ['stand_up_paddle', 'lake']),
  // a word of four letters with one typo
  typed('traveller_short_typo', 'skii', undefined, ['skiing']),
  typed('traveller_short_typo', 'yoha', undefined, ['yoga']),
  typed('traveller_short_typo', 'sutf', undefined, ['surfing']),
  typed('traveller_short_typo', 'vwlo', undefined, ['cycling']),
  typed('traveller_short_typo', 'mwer', 'de', ['seaside']),
  typed('traveller_short_typo', 'lsgo', 'it', ['lake']),
];

const functionWord = (query: string): QuerySpec => ({
  type: 'words_function_word',
  query,
  language: undefined,
});

/**
 * The traveller's words, a second round: searches of the kinds the ranking was found weak on
 * when it reads a traveller's words, written before any change to the ranking, lower case, accents
 * often left out; judged by the same rules as QUERIES. A soft wish (with children) is a concept of
 * the search: an offer without it answers part of the search. A real word that is no catalogue word
 * (`mars`, `hund`, `luglio`) adds no concept: the rest of the search is its answer.
 */
export const WORDS_QUERIES: QuerySpec[] = [
  // among offers that all cover a search, the search's language first
  typed('words_language_first', 'gastronomie alsace', 'fr', ['gastronomy'], ['alsace']),
  typed('words_language_first', 'provence gourmande', 'fr', ['gastronomy'], ['provence']),
  typed('words_language_first', 'wandern im wallis', 'de', ['hiking'], ['valais']),
  typed('words_language_first', 'vacances au ski a zermatt', 'fr', ['skiing'], ['zermatt']),
  typed('words_language_first', 'vacanze al mare in sardegna', 'it', ['beach'], ['sardinia']),
  typed('words_language_first', 'giro in battello sul lago di como', 'it', ['cruise'], ['lake_como']),
  typed('words_language_first', 'lake como boat trip', 'en', ['cruise'], ['lake_como']),
  // a misspelt place beside a word several languages share: no language to guess
  typed('words_loanword_typo', 'road trip iceladn', undefined, ['road_trip'], ['iceland']),
  typed('words_loanword_typo', 'road trip scottland', undefined, ['road_trip'], ['scotland']),
  typed('words_loanword_typo', 'ski dolomtis', undefined, ['skiing'], ['dolomites']),
  typed('words_loanword_typo', 'trekking madiera', undefined, ['hiking'], ['madeira']),
  typed('words_loanword_typo', 'surf algrave', undefined, ['surfing'], ['algarve']),
  typed('words_loanword_typo', 'kitesurf sardgena', undefined, ['kitesurfing'], ['sardinia']),
  // a real word, no catalogue word, one or two edits from one (mars: mare, maggio: Maggia, spas: Saas)
  typed('words_real_word', 'ski en mars', 'fr', ['skiing']),
  typed('words_real_word', 'skiferien im marz', 'de', ['skiing']),
  typed('words_real_word', 'trekking a maggio', 'it', ['hiking']),
  typed('words_real_word', 'spas in switzerland', 'en', ['wellness'], ['switzerland']),
  typed('words_real_word', 'wandern mit hund', 'de', ['hiking']),
  typed('words_real_word', 'randonnee avec mon chien', 'fr', ['hiking']),
  typed('words_real_word', 'vacanze al mare a luglio', 'it', ['beach']),
  // random strings around one function word: nothing is relevant, success is answering nothing
  functionWord('qqxvzk in wbrtlp'),
  functionWord('zzqvw et kxplmr'),
  functionWord('xjqwv und bzrtk'),
  functionWord('vvkqz the pwxmz'),
  functionWord('qpzrk di xwvtj'),
  functionWord('kxzqv am wvtpl'),
  functionWord('pqzvx de lmxqr'),
  functionWord('bzqkw la xvtpr'),
  functionWord('wqzxk mit pvrtz'),
  functionWord('jxqvz au kwprt'),
  functionWord('zkqvx nel twxpq'),
  functionWord('xvbqz for kzwpt'),
  // a sentence: fillers, quantifiers, "along", hyphens, a soft wish, a word the glossary lacks
  typed('words_sentence', 'a few days of hiking along lake geneva', 'en', ['hiking'], ['lake_geneva']),
  typed(
    'words_sentence',
    'quelques jours de velo le long du lac de constance',
    'fr',
    ['cycling'],
    ['lake_constance'],
  ),
  typed(
    'words_sentence',
    'ein paar tage wandern im berner oberland mit kindern',
    'de',
    ['hiking', 'family'],
    ['bernese_oberland'],
  ),
  typed(
    'words_sentence',
    'un week-end de randonnee en famille dans le jura',
    'fr',
    ['hiking', 'family'],
    ['jura'],
  ),
  typed(
    'words_sentence',
    'child-friendly beach holiday in sardinia',
    'en',
    ['beach', 'family'],
    ['sardinia'],
  ),
  typed(
    'words_sentence',
    'qualche giorno di trekking tranquillo sulle dolomiti',
    'it',
    ['hiking'],
    ['dolomites'],
  ),
  typed('words_sentence', 'day-hikes around grindelwald', 'en', ['hiking'], ['grindelwald']),
  // an everyday word of the search's own language for a concept
  typed('words_own_synonym', 'vacances balneaires en bretagne', 'fr', ['beach'], ['brittany']),
  typed('words_own_synonym', 'cure thermale', 'fr', ['thermal_baths']),
  typed('words_own_synonym', 'kur im wallis', 'de', ['wellness'], ['valais']),
  typed('words_own_synonym', 'terme in toscana', 'it', ['thermal_baths'], ['tuscany']),
  typed('words_own_synonym', 'vacances pedestres en suisse', 'fr', ['hiking'], ['switzerland']),
  typed('words_own_synonym', 'bergtour im tessin', 'de', ['hiking', 'mountains'], ['ticino']),
  typed('words_own_synonym', 'coastal walks in cornwall', 'en', ['hiking', 'seaside'], ['cornwall']),
  // an item (a cheese, a drink, castles, museums) for the theme its offers are filed under
  typed('words_item_theme', 'raclette im wallis', 'de', ['gastronomy'], ['valais']),
  typed('words_item_theme', 'fromages de savoie', 'fr', ['gastronomy'], ['savoie']),
  typed('words_item_theme', 'whisky scotland', 'en', ['gastronomy'], ['scotland']),
  typed('words_item_theme', "castelli valle d'aosta", 'it', ['culture'], ['aosta_valley']),
  typed('words_item_theme', 'schlosser in bayern', 'de', ['culture'], ['bavaria']),
  typed('words_item_theme', 'musees a vienne', 'fr', ['culture'], ['vienna']),
  typed('words_item_theme', 'vino in piemonte', 'it', ['gastronomy'], ['piedmont']),
  // a theme word the offers' categories make frequent
  typed('words_frequent_theme', 'kultur in wien', 'de', ['culture'], ['vienna']),
  typed('words_frequent_theme', 'aventure en corse', 'fr', ['adventure'], ['corsica']),
  typed('words_frequent_theme', 'natura in sardegna', 'it', ['nature'], ['sardinia']),
  typed('words_frequent_theme', 'family holidays in tyrol', 'en', ['family'], ['tyrol']),
  typed('words_frequent_theme', 'benessere in alto adige', 'it', ['wellness'], ['south_tyrol']),
  typed('words_frequent_theme', 'famille en montagne', 'fr', ['family', 'mountains']),
  // a part of the compounds offers write (Tageswanderungen, Hüttenwanderung, Gipfelwanderungen)
  typed('words_compound_offer', 'wanderung interlaken', 'de', ['hiking'], ['interlaken']),
  typed('words_compound_offer', 'wanderung engadin', 'de', ['hiking'], ['engadin']),
  typed('words_compound_offer', 'gipfel tessin', 'de', ['hiking', 'mountains'], ['ticino']),
  typed('words_compound_offer', 'wein lavaux', 'de', ['wine_tasting'], ['lavaux']),
  typed('words_compound_offer', 'wanderung genfersee', 'de', ['hiking'], ['lake_geneva']),
  typed('words_compound_offer', 'hutte engadin', 'de', ['hiking', 'mountains'], ['engadin']),
];

const near = (
  type: QueryType,
  query: string,
  language: Language,
  concepts: string[],
  nearPlaces: string[],
  places?: string[],
): QuerySpec => ({ type, query, language, concepts, places, near: nearPlaces });

/**
 * The world: searches naming a place wider than any destination (a mountain range, a sea, a group of
 * countries), a kind of place (an island, a lake, the coast, the mountains, far away), a real town no
 * offer names inside a region offers do name (a town of GeoNames' 1,000 inhabitants and more), or a
 * place the catalogue holds no offer in; written before the ranking knows where offers are, lower
 * case, accents often left out. A region or a kind of place is a place of the annotations' gazetteer
 * its member places are part of (`alps`, `islands`, `long_haul`); the lake, the coast and the
 * mountains are the offers' concepts (`lake`, `seaside`, `mountains`: what the offer is about). A
 * town no offer names and a place with no offer are judged by the places `near` them (gradeOf):
 * the offers near it answer it, those of the region that contains a town answer it in part, and
 * offers far away not at all.
 */
export const WORLD_QUERIES: QuerySpec[] = [
  // a mountain range, a sea, a group of countries: offers in their members, which rarely say it
  typed('world_region', 'ski dans les alpes', 'fr', ['skiing'], ['alps']),
  typed('world_region', 'voile en mediterranee', 'fr', ['sailing'], ['mediterranean']),
  typed('world_region', 'aurores boreales en scandinavie', 'fr', ['northern_lights'], ['scandinavia']),
  typed('world_region', 'wandern in den alpen', 'de', ['hiking'], ['alps']),
  typed('world_region', 'mittelmeerkuste segeln', 'de', ['sailing'], ['mediterranean']),
  typed('world_region', 'rundreise balkan', 'de', ['road_trip'], ['balkans']),
  typed('world_region', 'ski in the alps', 'en', ['skiing'], ['alps']),
  typed('world_region', 'balkans road trip', 'en', ['road_trip'], ['balkans']),
  typed('world_region', 'adriatic beach holiday', 'en', ['beach'], ['adriatic']),
  typed('world_region', 'settimana bianca sulle alpi', 'it', ['skiing'], ['alps']),
  typed('world_region', 'crociera in scandinavia', 'it', ['cruise'], ['scandinavia']),
  typed('world_region', 'vela nel mediterraneo', 'it', ['sailing'], ['mediterranean']),
  // a kind of place: an island, a lake, the coast, the mountains, far away
  typed('world_kind_of_place', 'randonnee sur une ile', 'fr', ['hiking'], ['islands']),
  typed('world_kind_of_place', 'voyage lointain', 'fr', [], ['long_haul']),
  typed('world_kind_of_place', 'kayak sur la cote', 'fr', ['kayaking', 'seaside']),
  typed('world_kind_of_place', 'inselurlaub', 'de', [], ['islands']),
  typed('world_kind_of_place', 'fernreise', 'de', [], ['long_haul']),
  typed('world_kind_of_place', 'radtour an einem see', 'de', ['cycling', 'lake']),
  typed('world_kind_of_place', 'island beach holiday', 'en', ['beach'], ['islands']),
  typed('world_kind_of_place', 'long-haul trip', 'en', [], ['long_haul']),
  typed('world_kind_of_place', 'coastal cycling', 'en', ['cycling', 'seaside']),
  typed('world_kind_of_place', 'vacanze su un isola', 'it', [], ['islands']),
  typed('world_kind_of_place', 'trekking sulla costa', 'it', ['hiking', 'seaside']),
  typed('world_kind_of_place', 'sci in montagna', 'it', ['skiing', 'mountains']),
  // a real town no offer names, inside a region offers name: the offers near it, then the region's
  near(
    'world_town_unnamed',
    'ski a heremence',
    'fr',
    ['skiing'],
    ['four_valleys', 'val_d_herens'],
    ['valais'],
  ),
  near('world_town_unnamed', 'randonnee a saas-grund', 'fr', ['hiking'], ['saastal'], ['valais']),
  near('world_town_unnamed', "plages d'alghero", 'fr', ['beach'], ['riviera_del_corallo'], ['sardinia']),
  near('world_town_unnamed', 'skiferien in saas-grund', 'de', ['skiing'], ['saastal'], ['valais']),
  near(
    'world_town_unnamed',
    'wandern in meiringen',
    'de',
    ['hiking'],
    ['hasliberg', 'lake_brienz'],
    ['bernese_oberland'],
  ),
  near(
    'world_town_unnamed',
    'skiurlaub in ellmau',
    'de',
    ['skiing'],
    ['wilder_kaiser', 'kitzbuhel'],
    ['tyrol'],
  ),
  near('world_town_unnamed', 'hiking in naters', 'en', ['hiking'], ['brig', 'aletsch'], ['valais']),
  near(
    'world_town_unnamed',
    'ski week in sankt niklaus',
    'en',
    ['skiing'],
    ['grachen', 'zermatt'],
    ['valais'],
  ),
  near(
    'world_town_unnamed',
    'beach holiday in alghero',
    'en',
    ['beach'],
    ['riviera_del_corallo'],
    ['sardinia'],
  ),
  near('world_town_unnamed', 'arrampicata a canazei', 'it', ['climbing'], ['val_di_fassa'], ['dolomites']),
  near('world_town_unnamed', 'sciare a bormio', 'it', ['skiing'], ['valtellina']),
  near('world_town_unnamed', 'sciare a ellmau', 'it', ['skiing'], ['wilder_kaiser', 'kitzbuhel'], ['tyrol']),
  // a place the catalogue holds no offer in: the offers near it, or nothing
  near('world_no_offer', 'safari au kenya', 'fr', ['wildlife'], ['tanzania']),
  near('world_no_offer', 'ski en andorre', 'fr', ['skiing'], ['val_d_aran', 'font_romeu']),
  near('world_no_offer', 'vacances au luxembourg', 'fr', [], ['mosel']),
  near('world_no_offer', 'safari in kenia', 'de', ['wildlife'], ['tanzania']),
  near(
    'world_no_offer',
    'wandern in liechtenstein',
    'de',
    ['hiking'],
    ['praettigau', 'bad_ragaz', 'walensee', 'flumserberg', 'appenzell'],
  ),
  near('world_no_offer', 'badeferien in albanien', 'de', ['beach'], ['corfu', 'budva', 'bay_of_kotor']),
  near('world_no_offer', 'kenya safari', 'en', ['wildlife'], ['tanzania']),
  near('world_no_offer', 'skiing in andorra', 'en', ['skiing'], ['val_d_aran', 'font_romeu']),
  near('world_no_offer', 'beach holiday in albania', 'en', ['beach'], ['corfu', 'budva', 'bay_of_kotor']),
  near('world_no_offer', 'safari in kenya', 'it', ['wildlife'], ['tanzania']),
  near(
    'world_no_offer',
    'trekking in liechtenstein',
    'it',
    ['hiking'],
    ['praettigau', 'bad_ragaz', 'walensee', 'flumserberg', 'appenzell'],
  ),
  near('world_no_offer', 'vacanze in lussemburgo', 'it', [], ['mosel']),
];

/**
 * Every judged query of the set: QUERIES, then TRAVELLER_QUERIES, then WORDS_QUERIES, then
 * WORLD_QUERIES.
 */
export const JUDGED_QUERIES: QuerySpec[] = [
  ...QUERIES,
  ...TRAVELLER_QUERIES,
  ...WORDS_QUERIES,
  ...WORLD_QUERIES,
];

/** A place and every place it is part of, through the gazetteer. */
export function placeClosure(ids: string[], places: Record<string, PlaceEntry>): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    if (!places[id]) throw new Error(`unknown place ${id}`);
    seen.add(id);
    places[id].in.forEach(visit);
  };
  ids.forEach(visit);
  return seen;
}

/** True when the offer's concepts cover a query concept (`a|b`: either; a broader one: any narrower). */
export function covers(offerConcepts: string[], queryConcept: string): boolean {
  return queryConcept
    .split('|')
    .some((wanted) =>
      offerConcepts.some((held) => held === wanted || (NARROWER[wanted] ?? []).includes(held)),
    );
}

/**
 * The grade of an offer for a query (see the file's comment): 2, 1 or 0. A query with places `near`
 * (a town no offer names, a place no offer is in) grades an offer in one of them as in the searched
 * place (2 with every concept, 1 with part of them), and an offer elsewhere in the query's `places`
 * (the region that contains the town) 1 with every concept, otherwise 0: the region's offers answer
 * a search for one of its towns, less well than those near it.
 */
export function gradeOf(spec: QuerySpec, offer: OfferAnnotation, places: Record<string, PlaceEntry>): number {
  if (answersNothing(spec.type)) return 0;
  const wantedPlaces = spec.places ?? [];
  const wantedConcepts = spec.concepts ?? [];
  const where = placeClosure(offer.places, places);
  const covered = wantedConcepts.filter((c) => covers(offer.concepts, c)).length;
  if (spec.near) {
    if (spec.near.some((place) => where.has(place))) {
      if (covered === wantedConcepts.length) return 2;
      return covered > 0 ? 1 : 0;
    }
    const inRegion = wantedPlaces.length > 0 && wantedPlaces.every((place) => where.has(place));
    return inRegion && covered === wantedConcepts.length ? 1 : 0;
  }
  if (!wantedPlaces.every((place) => where.has(place))) return 0;
  if (covered === wantedConcepts.length) return 2;
  return wantedPlaces.length > 0 || covered > 0 ? 1 : 0;
}

/** Folded words (lower case, accents off, German transliterations), as a traveller's search is compared. */
export function foldedWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

interface CatalogueLine {
  id: string;
  name: string;
  description?: string;
  destination?: { name: string };
  categories?: { slug: string; name?: string }[];
  language?: string;
}

/** A judged query as judged-multilingual.json holds it (relevance.ts JudgedQuery). */
export interface MultilingualJudgement {
  type: QueryType;
  query: string;
  /** `null`: no language. */
  language: Language | null;
  relevant: Record<string, number>;
}

/**
 * The problems of a query's language: it is written (undefined for none), one of SEARCH_LANGUAGES
 * or none, and none for a query of a type that answers nothing (a random string, with or without a
 * function word).
 */
export function languageProblems(spec: QuerySpec): string[] {
  if (!Object.keys(spec).includes('language')) return [`${spec.query}: no language (undefined for none)`];
  if (spec.language === undefined) return [];
  if (!SEARCH_LANGUAGES.includes(spec.language)) {
    return [
      `${spec.query}: language "${String(spec.language)}" is not one of ${SEARCH_LANGUAGES.join(', ')}`,
    ];
  }
  return answersNothing(spec.type) ? [`${spec.query}: a ${spec.type} query has no language`] : [];
}

/** Checks the catalogue, the annotations and the queries against each other; the judged queries. */
export function judge(
  catalogue: CatalogueLine[],
  annotations: Annotations,
  queries: QuerySpec[] = JUDGED_QUERIES,
): MultilingualJudgement[] {
  const problems: string[] = [];
  const ids = new Set(catalogue.map((offer) => offer.id));
  for (const offer of catalogue) {
    const annotation = annotations.offers[offer.id];
    if (!annotation) problems.push(`${offer.id}: no annotation`);
    else if (annotation.name !== offer.name) problems.push(`${offer.id}: annotated as "${annotation.name}"`);
    else if (annotation.language !== offer.language) {
      problems.push(`${offer.id}: language "${offer.language}", annotated as "${annotation.language}"`);
    }
  }
  for (const [id, annotation] of Object.entries(annotations.offers)) {
    if (!ids.has(id)) problems.push(`${id}: annotated but not in the catalogue`);
    for (const place of annotation.places)
      if (!annotations.places[place]) problems.push(`${id}: place ${place}`);
    for (const c of annotation.concepts) if (!OFFER_CONCEPTS.has(c)) problems.push(`${id}: concept ${c}`);
  }
  const vocabulary = new Set(
    catalogue.flatMap((offer) =>
      foldedWords(
        [
          offer.name,
          offer.description ?? '',
          offer.destination?.name ?? '',
          ...(offer.categories ?? []).map((c) => `${c.slug} ${c.name ?? ''}`),
        ].join(' '),
      ),
    ),
  );
  const seen = new Set<string>();
  const judged = queries.map((spec) => {
    if (seen.has(spec.query)) problems.push(`${spec.query}: written twice`);
    seen.add(spec.query);
    problems.push(...languageProblems(spec));
    for (const place of [...(spec.places ?? []), ...(spec.near ?? [])])
      if (!annotations.places[place]) problems.push(`${spec.query}: place ${place}`);
    for (const c of (spec.concepts ?? []).flatMap((c) => c.split('|'))) {
      if (!OFFER_CONCEPTS.has(c) && !NARROWER[c]) problems.push(`${spec.query}: concept ${c}`);
    }
    const relevant: Record<string, number> = {};
    for (const id of [...ids].sort()) {
      if (!annotations.offers[id]) continue;
      const grade = gradeOf(spec, annotations.offers[id], annotations.places);
      if (grade > 0) relevant[id] = grade;
    }
    const best = Object.keys(relevant).filter((id) => relevant[id] === 2);
    if (spec.type === 'nonsense') {
      const known = foldedWords(spec.query).filter((word) => vocabulary.has(word));
      if (known.length) problems.push(`${spec.query}: "${known.join(' ')}" is a catalogue word`);
    } else if (spec.type === 'words_function_word') {
      const known = foldedWords(spec.query).filter((word) => vocabulary.has(word));
      if (known.length !== 1 || foldedWords(spec.query).length < 2) {
        problems.push(
          `${spec.query}: needs exactly one catalogue word (the function word), not "${known.join(' ')}"`,
        );
      }
    } else if (!best.length) {
      problems.push(`${spec.query}: no offer graded 2`);
    }
    if (spec.type === 'cross_language') {
      const others = best.filter((id) => annotations.offers[id].language !== spec.language);
      if (others.length < 2) problems.push(`${spec.query}: fewer than 2 offers graded 2 in other languages`);
    }
    return { type: spec.type, query: spec.query, language: spec.language ?? null, relevant };
  });
  const nonsenseQueries = queries.filter((spec) => spec.type === 'nonsense').length;
  const functionWordQueries = queries.filter((spec) => spec.type === 'words_function_word').length;
  if (queries.length < 80) problems.push(`${queries.length} queries, fewer than 80`);
  if (nonsenseQueries < 10) problems.push(`${nonsenseQueries} nonsense queries, fewer than 10`);
  if (functionWordQueries > 0 && functionWordQueries < 10) {
    problems.push(`${functionWordQueries} words_function_word queries, fewer than 10`);
  }
  if (problems.length) throw new Error(`judged-multilingual:\n${problems.join('\n')}`);
  return judged;
}

async function main(): Promise<void> {
  const dir = join(__dirname, '..', '..', 'src', 'relevance');
  const catalogue = readFileSync(join(dir, 'multilingual-catalogue.ndjson'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as CatalogueLine);
  const annotations = JSON.parse(
    readFileSync(join(dir, 'multilingual-annotations.json'), 'utf8'),
  ) as Annotations;
  const judged = judge(catalogue, annotations);
  const offerLanguages = new Map(catalogue.map((offer) => [offer.id, offer.language ?? '']));
  const count = (grades: Record<string, number>, grade: number) =>
    Object.values(grades).filter((g) => g === grade).length;
  for (const q of judged) {
    const best = Object.keys(q.relevant).filter((id) => q.relevant[id] === 2);
    const languages = [...new Set(best.map((id) => annotations.offers[id].language))];
    const first = languageFirstGrades(q, offerLanguages);
    console.log(
      `${q.type}\t${q.language ?? '-'}\t${q.query}\t${count(q.relevant, 2)}×2 ${count(q.relevant, 1)}×1\t` +
        `${languages.sort().join(',')}\tlanguage first ${count(first, 2)}×2 ${count(first, 1)}×1`,
    );
  }
  const out = join(dir, 'judged-multilingual.json');
  const json = JSON.stringify({
    catalogue: 'multilingual-catalogue.ndjson',
    generatedBy: 'src/relevance/build-multilingual-judgements.ts',
    queries: judged,
  });
  // Written as Prettier writes it (the root `prettier --check .` reads it).
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(out);
  writeFileSync(out, await prettier.format(json, { ...options, parser: 'json' }));
  console.log(`wrote ${judged.length} queries to ${out}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
