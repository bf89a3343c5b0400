import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { loadGazetteer } from '../src/query/gazetteer/gazetteer';
import { loadTravelGlossary } from '../src/query/glossary/glossary';
import { loadStopWords, STOP_WORDS_PATH } from '../src/query/glossary/stop-words';
import { LANGUAGES } from '../src/query/analysis/languages';
import { fillerOffers, makeOffer } from './catalogue-fixtures';
import { catalogueTestAppAround, listTravels } from './test-app';

/**
 * Expansions that say one thing: a multi-word concept is read as one (`sports
 * nautiques` is water sports, not `sports` misspelt as `ports`, harbours), a word the glossary
 * lacked finds its offers (`voile`, sailing), and the stop words the expansions leave out are
 * PostgreSQL's as the analysis sees them (src/query/glossary/stop-words.tsv).
 */
const RECORDS: CatalogueRecord[] = [
  makeOffer('H1', {
    name: 'Häfen und Panoramen der Adria',
    description: 'Hafenstädte, Porto und Panoramastraßen an der Küste.',
    destination: { code: 'HR', name: 'Kroatien' },
    categories: [{ slug: 'city-break', name: 'Städtereise' }],
    language: 'de',
  }),
  makeOffer('H2', {
    name: 'Wassersport am Gardasee',
    description: 'Surfen, Segeln und Kajak am Nordufer.',
    destination: { code: 'IT', name: 'Italien' },
    categories: [{ slug: 'water-sports', name: 'Wassersport' }],
    language: 'de',
  }),
  makeOffer('H3', {
    name: 'Segeltörn in Dalmatien',
    description: 'Eine Woche an Bord zwischen Split und Hvar.',
    destination: { code: 'HR', name: 'Kroatien' },
    categories: [{ slug: 'sailing', name: 'Segeln' }],
    language: 'de',
  }),
  makeOffer('H4', {
    name: 'Cultural tour in Croatia',
    description: 'Old towns, museums and churches of Zagreb and Zadar.',
    destination: { code: 'HR', name: 'Croatia' },
    categories: [{ slug: 'culture', name: 'Culture' }],
    language: 'en',
  }),
  makeOffer('H5', {
    name: 'Sailing in Greece',
    description: 'A week aboard between the Cyclades.',
    destination: { code: 'GR', name: 'Greece' },
    categories: [{ slug: 'sailing', name: 'Sailing' }],
    language: 'en',
  }),
  // Other offers, so that no word above is held by more than a tenth of the catalogue (frequent).
  ...fillerOffers(30),
];

interface Scored {
  id: string;
}

describe('expansions that say one thing', () => {
  const app = catalogueTestAppAround(RECORDS);

  const ids = async (search: string) =>
    (await listTravels<{ totalRecords: number; records: Scored[] }>(app(), { search })).records.map(
      (r) => r.id,
    );

  it('answers "sports nautiques" with water sports first, not with harbours', async () => {
    const found = await ids('sports nautiques');
    expect(found[0]).toBe('H2');
    expect(found.indexOf('H1') === -1 || found.indexOf('H1') > found.indexOf('H2')).toBe(true);
  });

  it('answers "voile en Croatie" with sailing in Croatia first', async () => {
    const found = await ids('voile en Croatie');
    expect(found[0]).toBe('H3');
    // neither a Croatian offer without sailing nor sailing elsewhere comes before it
    expect(found.slice(1)).toEqual(expect.arrayContaining(['H4', 'H5']));
  });

  it('holds as stop words every word PostgreSQL calls one in the glossary’s and gazetteer’s phrases', async () => {
    const stopWords = loadStopWords();
    const tokens = new Set<string>();
    const addWords = (phrase: string) => {
      const words = phrase.split(' ');
      if (words.length > 1) for (const word of words) tokens.add(word);
    };
    for (const concept of loadTravelGlossary()) {
      for (const language of LANGUAGES) concept.words[language].forEach(addWords);
    }
    const gazetteer = loadGazetteer();
    for (const name of gazetteer.names().keys()) addWords(name);
    // the copy of PostgreSQL's lists alone (without the function words)
    const copied = loadStopWords(STOP_WORDS_PATH, {});
    const rows = (await app().dataSource.query(
      `SELECT t AS token FROM unnest($1::text[]) t
       WHERE ts_lexize('french_stem', t) = '{}' OR ts_lexize('german_stem', t) = '{}'
         OR ts_lexize('english_stem', t) = '{}'`,
      [[...tokens, ...copied]],
    )) as { token: string }[];
    const databaseStop = new Set(rows.map((row) => row.token));
    expect([...tokens].filter((token) => databaseStop.has(token) && !stopWords.has(token))).toEqual([]);
    expect([...copied].filter((word) => !databaseStop.has(word))).toEqual([]);
  });
});
