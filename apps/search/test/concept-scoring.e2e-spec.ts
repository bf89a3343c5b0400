import type { SearchClient, TravelsQuery } from '@rt/client';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { fillerOffers, languageOffer } from './catalogue-fixtures';
import { catalogueClientAround } from './test-app';

const offer = languageOffer;

/**
 * The scoring of concepts (apps/search/README.md, "Concept coverage"), on offers written for each
 * failure: a translation outranked the word itself (one idf per concept), the search's language
 * did not decide among equals (SEARCH_LANGUAGE_PREFERENCE), a place counted wherever a text
 * named it (a place covered only by the offer's name or destination), a general word of a
 * multi-word concept outscored the word that says it (GENERAL_WORD_SHARE), and a place name that
 * is a common word of every language was the place in a search of no guessed language.
 */
const RECORDS: CatalogueRecord[] = [
  // "randonnée": held by many French offers, its translations by one English and one German offer
  // of the same shape (a rarer term had the higher idf, and won)
  offer('RA-FR1', 'fr', 'Randonnée au Jura', 'Trois jours de marche.'),
  offer('RA-FR2', 'fr', 'Randonnée en Gruyère', 'Trois jours de marche.'),
  offer('RA-FR3', 'fr', 'Randonnée au Chasseral', 'Trois jours de marche.'),
  offer('RA-FR4', 'fr', 'Randonnée en Ajoie', 'Trois jours de marche.'),
  offer('RA-EN1', 'en', 'Hiking at Moutier', 'Three days walking.'),
  offer('RA-DE1', 'de', 'Wanderung im Emmental', 'Drei Tage unterwegs.'),
  // Zermatt: one offer per language, the English one naming Zermatt more often
  offer('ZE-EN1', 'en', 'Zermatt hiking', 'Zermatt, Zermatt and the Matterhorn trails.'),
  offer('ZE-FR1', 'fr', 'Randonnée à Zermatt', 'Sentiers et refuges sous le Cervin.'),
  offer('ZE-DE1', 'de', 'Wellness in Zermatt', 'Ruhe und Bäder unter dem Matterhorn.'),
  // Zurich: a city break in Zurich, against beach and hiking offers elsewhere that depart from it
  offer('ZH-FR1', 'fr', 'Week-end à Zurich', 'La vieille ville et le lac.'),
  offer('CO-FR1', 'fr', 'Plages de Corse', 'Sable fin et criques. Départ de Genève, Bâle ou Zurich.', {
    code: 'FR',
    name: 'France',
  }),
  offer('SI-FR1', 'fr', 'Plages de Sicile', 'Mer turquoise et criques. Départ de Genève, Bâle ou Zurich.', {
    code: 'IT',
    name: 'Italie',
  }),
  // "food tour": a food trip in German (Genussreise, with a Rundreise) against English tours that
  // mention food; "tour", a general word, is the rarer word in English
  offer('FT-DE1', 'de', 'Genussreise im Wallis', 'Eine Rundreise zu Käse, Brot und Wein.'),
  offer(
    'FT-EN1',
    'en',
    'Self-drive tour of the Jura',
    'A tour by car, the tour of the lakes, food on the way.',
  ),
  offer(
    'FT-EN2',
    'en',
    'E-bike tour of Lavaux',
    'A tour by e-bike, the tour of the vineyards, food on the way.',
  ),
  // "spa weekend": Spa is also a Belgian town (gazetteer: a common word in every language)
  offer('SP-EN1', 'en', 'Wellness weekend in Leukerbad', 'Thermal baths, a spa and quiet walks.'),
  offer('SP-FR1', 'fr', 'Thermes de Spa', 'Bains et détente dans les Ardennes.', {
    code: 'BE',
    name: 'Belgique',
  }),
  ...fillerOffers(40),
];

describe('scoring: one idf per concept, the search language among equals, a place where the offer is', () => {
  const client = catalogueClientAround(RECORDS, { SEARCH_LANGUAGE_PREFERENCE: '10' });
  const offClient = catalogueClientAround(RECORDS, { SEARCH_LANGUAGE_PREFERENCE: '0' });

  const textPage = (on: () => SearchClient, query: TravelsQuery) =>
    on().travels({ infoDensity: 'min', size: 20, rrfVectorWeight: 0, ...query });
  const textIds = async (on: () => SearchClient, search: string) =>
    (await textPage(on, { search })).records.map((record) => record.id);

  it('a translation never ranks above the word itself on offers of the same shape (no language preference)', async () => {
    const ids = await textIds(offClient, 'randonnée');
    expect(ids.slice(0, 4).sort()).toEqual(['RA-FR1', 'RA-FR2', 'RA-FR3', 'RA-FR4']);
    expect(ids).toEqual(expect.arrayContaining(['RA-EN1', 'RA-DE1']));
    const { records } = await textPage(offClient, { search: 'randonnée', explain: true });
    // every form of the word shares one idf, the concept's
    const idfs = new Set(records.map((record) => record._explanation?.text.concepts[0]?.idf));
    expect(idfs.size).toBe(1);
    expect([...idfs][0]).toBeGreaterThan(0);
    expect(records.every((record) => record._explanation?.text.language_factor === 1)).toBe(true);
  });

  it("ranks the offers written in the search's language first among those covering as much", async () => {
    // "randonnée Zermatt" (French): the three Zermatt offers cover the place, two of them hiking
    const preferred = await textIds(client, 'randonnée Zermatt');
    const neutral = await textIds(offClient, 'randonnée Zermatt');
    // off: the English offer, naming Zermatt three times, scores above the French one
    expect(neutral.indexOf('ZE-EN1')).toBeLessThan(neutral.indexOf('ZE-FR1'));
    // on: the French one first, but never above an offer covering more (a Zermatt offer without
    // hiking stays below both, whatever its language; a French hike elsewhere below all three)
    expect(preferred.slice(0, 3)).toEqual(['ZE-FR1', 'ZE-EN1', 'ZE-DE1']);
    expect(neutral.slice(0, 3)).toEqual(['ZE-EN1', 'ZE-FR1', 'ZE-DE1']);
    const { records } = await textPage(client, { search: 'randonnée Zermatt', explain: true, size: 3 });
    expect(records[0]._explanation?.text.language).toBe('fr');
    expect(records.map((record) => record._explanation?.text.language_factor)).toEqual([11, 1, 1]);
  });

  it('has no language preference when no language is guessed', async () => {
    const { records } = await textPage(client, { search: 'Zermatt', explain: true });
    expect(records[0]._explanation?.text.language).toBeNull();
    expect(records.every((record) => record._explanation?.text.language_factor === 1)).toBe(true);
    expect(records.map((record) => record.id)).toEqual(
      (await textPage(offClient, { search: 'Zermatt' })).records.map((record) => record.id),
    );
  });

  it('a general word of a multi-word concept ("tour" of "food tour") weighs less than the word that says it', async () => {
    const { records } = await textPage(offClient, { search: 'food tour', explain: true });
    const ids = records.map((record) => record.id);
    expect(records[0]._explanation?.text.concepts.map(({ word, weight }) => [word, weight])).toEqual([
      ['food', 4],
      ['tour', 1],
    ]);
    // the food trip first, though English "tour" names both tours (a whole part, they scored above it)
    for (const tour of ['FT-EN1', 'FT-EN2']) expect(ids.indexOf('FT-DE1')).toBeLessThan(ids.indexOf(tour));
    expect(ids[0]).toBe('FT-DE1');
  });

  it('a place name that is a common word of every language is the word when no language is guessed', async () => {
    const { records } = await textPage(offClient, { search: 'spa weekend', explain: true });
    const spaOf = (id: string) =>
      records
        .find((record) => record.id === id)
        ?._explanation?.text.concepts.find((concept) => concept.word === 'spa');
    // wellness, not the town: a spa in the description covers it
    expect(spaOf('SP-EN1')).toMatchObject({ weight: 4, covered: true, place: null });
    expect(records[0].id).toBe('SP-EN1');
    // after a preposition of place, the town
    const town = await textPage(offClient, { search: 'weekend in Spa', explain: true });
    expect(
      town.records[0]._explanation?.text.concepts.find((concept) => concept.word === 'spa'),
    ).toMatchObject({
      weight: 16,
    });
  });

  it('a departure city named in a description never covers the place: the offer in Zurich first', async () => {
    for (const on of [client, offClient]) {
      const ids = await textIds(on, 'Zurich randonnée');
      expect(ids[0]).toBe('ZH-FR1');
      // the beaches that depart from Zurich cover nothing: below every hike
      for (const beach of ['CO-FR1', 'SI-FR1']) {
        if (!ids.includes(beach)) continue;
        for (const hike of ['RA-FR1', 'RA-FR2', 'RA-FR3', 'RA-FR4', 'ZE-FR1'])
          expect(ids.indexOf(beach)).toBeGreaterThan(ids.indexOf(hike));
      }
    }
    const { records } = await textPage(client, { search: 'Zurich randonnée', explain: true });
    const placeOf = (id: string) =>
      records
        .find((record) => record.id === id)
        ?._explanation?.text.concepts.find((concept) => concept.word === 'zurich');
    expect(placeOf('ZH-FR1')).toMatchObject({ weight: 16, covered: true, place: 'destination_or_name' });
    for (const beach of ['CO-FR1', 'SI-FR1']) {
      if (!records.some((record) => record.id === beach)) continue;
      expect(placeOf(beach)).toMatchObject({ weight: 16, covered: false, place: 'mention_only' });
    }
  });
});
