import type { SearchClient, TravelsQuery } from '@rt/client';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { fillerOffers, languageOffer } from './catalogue-fixtures';
import { catalogueClientAround } from './test-app';

const offer = languageOffer;

/**
 * What a search's words say (apps/search/README.md, "The traveller's words"), on offers written for
 * each: the search's language first by default, a function word that selects nothing, a filler word
 * of a sentence minor, a wish about who travels minor beside the activity, and
 * the language told by the place a search names when its words tell none.
 */
const RECORDS: CatalogueRecord[] = [
  // Zermatt: one hiking offer per language, the English one naming Zermatt more often
  offer('ZE-EN1', 'en', 'Zermatt hiking', 'Zermatt, Zermatt and the Matterhorn trails.'),
  offer('ZE-FR1', 'fr', 'Randonnée à Zermatt', 'Sentiers et refuges sous le Cervin.'),
  offer('ZE-DE1', 'de', 'Wanderung in Zermatt', 'Pfade und Hütten unter dem Matterhorn.'),
  // Italian offers holding the little word "nei" (in the), which a nonsense search must not reach
  offer('IT-1', 'it', 'Trekking nei Grigioni', 'Sentieri nei boschi e nei villaggi.'),
  offer('IT-2', 'it', 'Vacanze nei laghi', 'Nuoto nei laghi di montagna.'),
  // offers holding filler words of a sentence ("quelques", "plusieurs") but no hike
  offer('FI-FR1', 'fr', 'Quelques boutiques de Genève', 'Plusieurs adresses à découvrir.'),
  offer('FI-FR2', 'fr', 'Plusieurs fêtes à Lausanne', 'Quelques soirées à découvrir.'),
  // ski without families, families without ski
  offer('SK-FR1', 'fr', 'Ski à Verbier', 'Une semaine sur les pistes des 4 Vallées.'),
  offer('SK-FR2', 'fr', 'Ski à Crans-Montana', 'Six jours de ski et un forfait.'),
  offer('FA-FR1', 'fr', 'Vacances en famille à Lugano', 'Le lac, les parcs et la famille.'),
  offer('FA-FR2', 'fr', 'Famille au bord du Léman', 'Des journées en famille au bord du lac.'),
  offer('RJ-FR1', 'fr', 'Randonnée dans le Jura', 'Trois jours de marche sur les crêtes.'),
  // an English title full of little words, which a string of random letters with "the" was near
  offer('JU-EN1', 'en', 'Jungfraujoch by train: the Top of Europe', 'The railway to the top of the Alps.'),
  // Venice: a city break per language
  offer('VE-EN1', 'en', 'Venice long weekend', 'Venice, Venice by boat and the lagoon.', {
    code: 'IT',
    name: 'Italy',
  }),
  offer('VE-FR1', 'fr', 'Week-end à Venise', 'Les canaux et la lagune.', { code: 'IT', name: 'Italie' }),
  // a safari in a place the gazetteer lacks, and an offer holding the sentence's common words
  offer('MM-DE1', 'de', 'Safari in der Masai Mara', 'Löwen, Elefanten und Gnus in der Savanne.', {
    code: 'KE',
    name: 'Kenia',
  }),
  offer(
    'BE-DE1',
    'de',
    'Den Rheinfall erleben und bestaunen',
    'Erleben und bestaunen: der Rheinfall bei Schaffhausen.',
  ),
  // "end" alone, which the "end" of "week-end" must not select
  offer('EN-EN1', 'en', "Land's End lighthouse", 'The end of the land, a lighthouse on the cliff.', {
    code: 'GB',
    name: 'United Kingdom',
  }),
  ...fillerOffers(40),
];

describe("the traveller's words: the search's language, function and filler words, wishes beside the activity", () => {
  // the service's defaults (SEARCH_LANGUAGE_PREFERENCE among them)
  const client = catalogueClientAround(RECORDS);
  const offClient = catalogueClientAround(RECORDS, { SEARCH_LANGUAGE_PREFERENCE: '0' });

  const page = (on: () => SearchClient, query: TravelsQuery) =>
    on().travels({ infoDensity: 'min', size: 20, ...query });
  const textIds = async (on: () => SearchClient, search: string) =>
    (await page(on, { search, rrfVectorWeight: 0 })).records.map((record) => record.id);
  const conceptsOf = async (search: string) => {
    const { records } = await page(client, { search, explain: true, rrfVectorWeight: 0 });
    return Object.fromEntries(
      (records[0]?._explanation?.text.concepts ?? []).map(({ word, weight }) => [word, weight]),
    );
  };

  it("puts the offer in the search's language first among those covering as much, by default", async () => {
    const preferred = await textIds(client, 'randonnée Zermatt');
    const neutral = await textIds(offClient, 'randonnée Zermatt');
    expect(neutral.indexOf('ZE-EN1')).toBeLessThan(neutral.indexOf('ZE-FR1'));
    expect(preferred[0]).toBe('ZE-FR1');
    expect(preferred.slice(0, 3).sort()).toEqual(['ZE-DE1', 'ZE-EN1', 'ZE-FR1']);
  });

  it('answers nothing when only a function word of the search matches, the semantic side included', async () => {
    for (const search of ['qqxvzk in wbrtlp', 'qqxvzk nei wbrtlp', 'vvkqz the pwxmz', 'in the', 'nei']) {
      const { totalRecords, records } = await page(client, { search });
      expect({ search, totalRecords, records: records.length }).toEqual({
        search,
        totalRecords: 0,
        records: 0,
      });
    }
  });

  it('answers the content words of a search whose other words match nothing, and names those in explain', async () => {
    const { records } = await page(client, {
      search: 'trekking nei qqxvzk',
      explain: true,
      rrfVectorWeight: 0,
    });
    expect(records[0].id).toBe('IT-1');
    // "nei" adds to the score of the offers "trekking" selects, and selects none itself
    expect(records.map((record) => record.id)).not.toContain('IT-2');
    expect(records[0]._explanation?.text.unmatched_words).toEqual(['qqxvzk']);
    const concepts = records[0]._explanation?.text.concepts ?? [];
    expect(concepts.map(({ word, weight }) => [word, weight])).toContainEqual(['trekking', 4]);
    expect(concepts.some(({ word, weight }) => word === 'nei' && weight > 0)).toBe(false);
  });

  it('weighs the filler words of a sentence as minor concepts: the hike first, not the offers that say "quelques"', async () => {
    const search = 'plusieurs randonnées dans le Jura';
    const ids = await textIds(client, search);
    expect(ids[0]).toBe('RJ-FR1');
    for (const filler of ['FI-FR1', 'FI-FR2'])
      if (ids.includes(filler)) expect(ids.indexOf(filler)).toBeGreaterThan(0);
    const weights = await conceptsOf(search);
    expect(weights).toMatchObject({ plusieurs: 1, randonnees: 4 });
  });

  it('weighs the common words no rule knows of a sentence as minor concepts, a name no dictionary knows as major', async () => {
    const search = 'die Masai Mara erleben und bestaunen';
    const ids = await textIds(client, search);
    expect(ids[0]).toBe('MM-DE1');
    expect(ids.indexOf('BE-DE1')).toBeGreaterThan(0);
    // `erleben` and `bestaunen` are German's (Hunspell) and no rule's; `masai` and `mara` no German
    // word: the destination the gazetteer lacks
    const { records } = await page(client, { search, explain: true, rrfVectorWeight: 0 });
    const weightsOf = (id: string) =>
      Object.fromEntries(
        (records.find((record) => record.id === id)?._explanation?.text.concepts ?? []).map(
          ({ word, weight }) => [word, weight],
        ),
      );
    expect(weightsOf('MM-DE1')).toMatchObject({ masai: 4, mara: 4, erleben: 1, bestaunen: 1 });
    // in a short search every word is what the traveller looks for
    expect(await conceptsOf('Rheinfall erleben')).toMatchObject({ erleben: 4 });
  });

  it('reads a hyphenated word a rule knows whole as one word: the "end" of "week-end" selects nothing', async () => {
    for (const search of ['week-end dans le Jura', 'un week-end de randonnée dans le Jura']) {
      const ids = await textIds(client, search);
      expect({ search, first: ids[0], end: ids.includes('EN-EN1') }).toEqual({
        search,
        first: 'RJ-FR1',
        end: false,
      });
    }
    // the word "end" typed alone is a word of its own
    expect(await textIds(client, 'end of the land')).toContain('EN-EN1');
  });

  it('weighs a wish about who travels as a minor concept beside the activity', async () => {
    const ids = await textIds(client, 'ski en famille');
    expect(ids.slice(0, 2).sort()).toEqual(['SK-FR1', 'SK-FR2']);
    expect(await conceptsOf('ski en famille')).toMatchObject({ ski: 4, famille: 1 });
    // without an activity, the wish is what the traveller looks for
    expect(await conceptsOf('vacances en famille')).toMatchObject({ famille: 4 });
  });

  it("takes the search's language from the place it names when its words tell none", async () => {
    for (const search of ['venise week-end', 'vneise week-end']) {
      const { records } = await page(client, { search, explain: true, rrfVectorWeight: 0 });
      expect({ search, language: records[0]._explanation?.text.language }).toEqual({
        search,
        language: 'fr',
      });
      expect(records[0].id).toBe('VE-FR1');
    }
    // a name written alike in several languages tells nothing
    const { records } = await page(client, { search: 'zermatt week-end', explain: true, rrfVectorWeight: 0 });
    expect(records[0]?._explanation?.text.language ?? null).toBeNull();
  });
});
