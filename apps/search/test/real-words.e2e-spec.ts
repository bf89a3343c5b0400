import type { TravelsQuery } from '@rt/client';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { fillerOffers, languageOffer } from './catalogue-fixtures';
import { waitFor } from '@rt/testing';
import { QueryExpansionService } from '../src/query/glossary/query-expansion.service';
import { catalogueClientAround, createTestApp } from './test-app';

const offer = languageOffer;

const FRANCE = { code: 'FR', name: 'France' };
const ITALY = { code: 'IT', name: 'Italia' };
const SPAIN = { code: 'ES', name: 'Spain' };
const UK = { code: 'GB', name: 'United Kingdom' };

/**
 * Real words are not typos (apps/search/README.md, "Real words are not typos"; D-82): a word of a
 * language the search may be in (the Hunspell dictionaries) is never corrected into another word
 * or a place, on offers written for each failure: an English plural one edit from a city of the
 * catalogue became the city (`parks`: Paris, a place of weight 16), a French and a German word
 * became unrelated words of the catalogue (`tapis`: tapas; `Brücken`: bracken), a month a sea and
 * a region (`mars`: Italian `mare`; `march`: the Marche). A real misspelling is still corrected,
 * and a place's exact name is still the place.
 */
const RECORDS: CatalogueRecord[] = [
  // "parks": the catalogue holds "park" (the stem), not "parks"; Paris is one edit away
  offer('PK-EN1', 'en', 'Park walks in Munich', 'The English Garden, its park and beer gardens.', {
    code: 'DE',
    name: 'Germany',
  }),
  offer('PA-FR1', 'fr', 'Week-end à Paris', 'Musées, quais et bistrots.', FRANCE),
  // "tapis" (French, a carpet) is one edit from "tapas"
  offer('TA-EN1', 'en', 'Tapas evenings in Seville', 'Tapas bars of the old town.', SPAIN),
  offer('TA-EN2', 'en', 'Tapas and flamenco', 'Tapas, sherry and a flamenco show.', SPAIN),
  // "Brücken" (German, bridges; folded `brucken`) is one edit from "bracken" (a fern)
  offer('BR-EN1', 'en', 'Bracken and heather walks', 'Moorland trails through bracken.', UK),
  // "mars" (French, March) is one edit from Italian "mare" (the sea), held by many offers
  offer('MA-IT1', 'it', 'Vacanze al mare in Puglia', 'Spiagge e mare cristallino.', ITALY),
  offer('MA-IT2', 'it', 'Mare e sole in Sardegna', 'Il mare più bello.', ITALY),
  offer('MA-IT3', 'it', 'Settimana al mare', 'Mare, sole e relax in Liguria.', ITALY),
  offer('MA-IT4', 'it', 'Mare in Sicilia', 'Mare e cultura tra Palermo e Cefalù.', ITALY),
  offer('MA-IT5', 'it', 'Crociera nel mare Egeo', 'Isole e mare.', { code: 'GR', name: 'Grecia' }),
  // "march" is one edit from the Marche, an Italian region (the gazetteer)
  offer('MC-IT1', 'it', 'Borghi delle Marche', 'Colline, borghi e vino.', ITALY),
  offer('MC-EN1', 'en', 'A march through the Highlands', 'A long walk, a march, in Scotland.', UK),
  ...fillerOffers(30),
];

describe('real words from real dictionaries: a real word is never corrected', () => {
  const client = catalogueClientAround(RECORDS);

  const page = (query: TravelsQuery) =>
    client().travels({ infoDensity: 'min', size: 20, rrfVectorWeight: 0, explain: true, ...query });
  const idsOf = async (search: string) => (await page({ search })).records.map((record) => record.id);
  const conceptOf = async (search: string, word: string) =>
    (await page({ search })).records.map((record) =>
      record._explanation?.text.concepts.find((concept) => concept.word === word),
    );

  it('an English plural one edit from a city of the catalogue is not that city', async () => {
    const ids = await idsOf('parks');
    expect(ids[0]).toBe('PK-EN1');
    expect(ids).not.toContain('PA-FR1');
    // the word is no place of weight 16
    for (const concept of await conceptOf('parks', 'parks')) expect(concept?.place ?? null).toBeNull();
  });

  it('a French real word is not corrected into an unrelated word of the catalogue', async () => {
    expect(await idsOf('tapis')).toEqual([]);
    expect(await idsOf('tapis rouge')).not.toContain('TA-EN1');
  });

  it('a German real word, its umlaut folded, is not corrected into an unrelated word', async () => {
    expect(await idsOf('Brücken')).not.toContain('BR-EN1');
    expect(await idsOf('Bruecken')).not.toContain('BR-EN1');
  });

  it('a month is neither a sea nor a region', async () => {
    for (const search of ['mars', 'mars 2027']) {
      const ids = await idsOf(search);
      for (const sea of ['MA-IT1', 'MA-IT2', 'MA-IT3', 'MA-IT4', 'MA-IT5']) expect(ids).not.toContain(sea);
    }
    const ids = await idsOf('march');
    expect(ids[0]).toBe('MC-EN1');
    expect(ids).not.toContain('MC-IT1');
  });

  it('a real misspelling is still corrected, into a word and into a place', async () => {
    expect((await idsOf('tapsa')).slice(0, 2).sort()).toEqual(['TA-EN1', 'TA-EN2']);
    expect((await idsOf('pariis'))[0]).toBe('PA-FR1');
    const [paris] = await conceptOf('pariis', 'pariis');
    expect(paris).toMatchObject({ weight: 16 });
  });

  it("a place's exact name keeps the gazetteer's rules, though the dictionaries know it", async () => {
    expect((await idsOf('paris'))[0]).toBe('PA-FR1');
    const [paris] = await conceptOf('paris', 'paris');
    expect(paris).toMatchObject({ weight: 16, covered: true });
  });
});

describe('the dictionaries preloaded after start', () => {
  it('reads none before its delay, then one language a turn', async () => {
    const t = await createTestApp({ env: { SEARCH_DICTIONARY_PRELOAD_MS: '600000' } });
    try {
      const expansions = t.app.get(QueryExpansionService);
      expect(expansions.dictionaryLanguages).toEqual([]);
      expect(expansions.preloadDictionaries(1)).toBe(3);
      expect(expansions.dictionaryLanguages).toEqual(['fr']);
      expect(expansions.preloadDictionaries()).toBe(0);
      expect([...expansions.dictionaryLanguages].sort()).toEqual(['de', 'en', 'fr', 'it']);
      expect(expansions.preloadDictionaries()).toBe(0);
    } finally {
      await t.close();
    }
  }, 90_000);

  it('reads the four languages in the background, SEARCH_DICTIONARY_PRELOAD_MS after start', async () => {
    const t = await createTestApp({ env: { SEARCH_DICTIONARY_PRELOAD_MS: '1' } });
    try {
      const expansions = t.app.get(QueryExpansionService);
      await waitFor(
        async () => (expansions.dictionaryLanguages.length === 4 ? true : undefined),
        60_000,
        'the four dictionaries to be preloaded',
      );
      expect([...expansions.dictionaryLanguages].sort()).toEqual(['de', 'en', 'fr', 'it']);
    } finally {
      await t.close();
    }
  }, 90_000);
});
