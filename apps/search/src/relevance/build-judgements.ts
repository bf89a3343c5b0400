import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogueRecord } from '../catalogue/catalogue-record';
import { generateCatalogue } from '../catalogue/catalogue-generator';
import type { JudgedQuery, QueryType } from './relevance';

/**
 * Writes judged-queries.json: the judged query set of the demo catalogue (`generated:2000`),
 * committed before any tuning. Judgements come from the generator's ground truth, never from a
 * ranker: an offer's place is its photos' `alt`, its theme the first category, its language the
 * `language` field. Grade 2: the place and the theme the query asks for (or the exact name); grade
 * 1: the place alone (or the theme as a secondary category). Cross-language queries judge only
 * offers written in another language than the query's. Run once:
 * `node dist/relevance/build-judgements.js` (the file is then edited by hand only to add queries).
 */
interface Spec {
  type: QueryType;
  query: string;
  place?: string;
  theme?: string;
  name?: string;
  /** Cross-language: the query's language; offers in it are not judged relevant. */
  language?: string;
}

const SPECS: Spec[] = [
  // exact names (filled from the catalogue below)
  { type: 'exact_name', query: '', name: 'TRV-000005' },
  { type: 'exact_name', query: '', name: 'TRV-000123' },
  { type: 'exact_name', query: '', name: 'TRV-000777' },
  { type: 'exact_name', query: '', name: 'TRV-001500' },
  { type: 'exact_name', query: '', name: 'TRV-001999' },
  // destination + theme
  { type: 'destination_theme', query: 'ski Zermatt', place: 'Zermatt', theme: 'ski' },
  { type: 'destination_theme', query: 'ski Tirol', place: 'Tirol', theme: 'ski' },
  { type: 'destination_theme', query: 'beach Naxos', place: 'Naxos', theme: 'beach' },
  { type: 'destination_theme', query: 'Kultur Praha', place: 'Praha', theme: 'culture' },
  { type: 'destination_theme', query: 'gastronomie Schwarzwald', place: 'Schwarzwald', theme: 'gastronomy' },
  { type: 'destination_theme', query: 'wellness Salzburg', place: 'Salzburg', theme: 'wellness' },
  { type: 'destination_theme', query: 'cycling Amsterdam', place: 'Amsterdam', theme: 'cycling' },
  // short words
  { type: 'short_word', query: 'Paris', place: 'Paris' },
  { type: 'short_word', query: 'Sylt', place: 'Sylt' },
  { type: 'short_word', query: 'Oslo', place: 'Oslo' },
  { type: 'short_word', query: 'Hvar', place: 'Hvar' },
  { type: 'short_word', query: 'Nice', place: 'Nice' },
  { type: 'short_word', query: 'Porto', place: 'Porto' },
  // accents left out
  { type: 'accents', query: 'Zurich', place: 'Zürich' },
  { type: 'accents', query: 'Reykjavik', place: 'Reykjavík' },
  { type: 'accents', query: 'Malaga', place: 'Málaga' },
  { type: 'accents', query: 'Tromso', place: 'Tromsø' },
  { type: 'accents', query: 'Geneve', place: 'Genève' },
  { type: 'accents', query: 'Koln', place: 'Köln' },
  { type: 'accents', query: 'Muenchen', place: 'München' },
  // typos
  { type: 'typo', query: 'Zermat', place: 'Zermatt' },
  { type: 'typo', query: 'Barcleona', place: 'Barcelona' },
  { type: 'typo', query: 'Santorni', place: 'Santorini' },
  { type: 'typo', query: 'Dubrovnk', place: 'Dubrovnik' },
  { type: 'typo', query: 'Interlakn', place: 'Interlaken' },
  { type: 'typo', query: 'Amsterdm', place: 'Amsterdam' },
  { type: 'typo', query: 'Edinburg', place: 'Edinburgh' },
  // synonyms (no shared word with the offers)
  { type: 'synonym', query: 'snowboard holiday', theme: 'ski' },
  { type: 'synonym', query: 'trekking', theme: 'hiking' },
  { type: 'synonym', query: 'food tour', theme: 'gastronomy' },
  { type: 'synonym', query: 'spa retreat', theme: 'wellness' },
  { type: 'synonym', query: 'bike tour', theme: 'cycling' },
  { type: 'synonym', query: 'rail journey', theme: 'train' },
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
];

function judge(spec: Spec, catalogue: CatalogueRecord[]): JudgedQuery {
  const placeOf = (offer: CatalogueRecord) => (offer.photos as { alt: string }[] | undefined)?.[0]?.alt;
  const themes = (offer: CatalogueRecord) => (offer.categories ?? []).map((c) => c.slug);
  const relevant: Record<string, number> = {};
  let query = spec.query;
  if (spec.type === 'exact_name') {
    const target = catalogue.find((offer) => offer.id === spec.name);
    if (!target) throw new Error(`no ${spec.name}`);
    query = target.name;
    for (const offer of catalogue) {
      if (offer.name === target.name) relevant[offer.id] = 2;
      else if (placeOf(offer) === placeOf(target) && themes(offer)[0] === themes(target)[0])
        relevant[offer.id] = 1;
    }
  } else {
    for (const offer of catalogue) {
      if (spec.language && offer.language === spec.language) continue;
      const placeMatch = spec.place === undefined || placeOf(offer) === spec.place;
      const primary = spec.theme === undefined || themes(offer)[0] === spec.theme;
      const anyTheme = spec.theme === undefined || themes(offer).includes(spec.theme);
      if (placeMatch && primary) relevant[offer.id] = 2;
      else if (spec.place !== undefined && placeMatch) relevant[offer.id] = 1;
      else if (spec.place === undefined && anyTheme) relevant[offer.id] = 1;
    }
  }
  return { type: spec.type, query, relevant };
}

function main(): void {
  const catalogue = [...generateCatalogue({ count: 2000 })];
  const judged = SPECS.map((spec) => judge(spec, catalogue));
  for (const q of judged) {
    const grades = Object.values(q.relevant);
    console.log(
      `${q.type}\t${q.query}\t${grades.filter((g) => g === 2).length}×2 ${grades.filter((g) => g === 1).length}×1`,
    );
    if (!grades.includes(2)) throw new Error(`nothing highly relevant for ${q.query}`);
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

main();
