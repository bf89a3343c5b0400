import type { SearchClient, TravelsQuery } from '@rt/client';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { fillerOffers, makeOffer } from './catalogue-fixtures';
import { createCatalogueTestApp, searchClientOf, TestApp } from './test-app';

type Language = 'fr' | 'de' | 'en' | 'it';

const offer = (
  id: string,
  language: Language,
  name: string,
  description: string,
  destination = { code: 'CH', name: 'Suisse' },
): CatalogueRecord =>
  makeOffer(id, {
    name,
    description,
    language,
    destination,
    categories: [{ slug: 'other', name: 'Other' }],
  });

/**
 * Issue 48, the scoring (apps/search/README.md, "Concept coverage"), on offers written for each
 * failure: a translation outranked the word itself (one idf per concept), the search's language
 * did not decide among equals (SEARCH_LANGUAGE_PREFERENCE), and a place counted wherever a text
 * named it (a place covered only by the offer's name or destination).
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
  ...fillerOffers(40),
];

describe('issue 48: one idf per concept, the search language among equals, a place where the offer is', () => {
  let t: TestApp;
  let client: SearchClient;
  let off: TestApp;
  let offClient: SearchClient;

  beforeAll(async () => {
    t = await createCatalogueTestApp(RECORDS, { SEARCH_LANGUAGE_PREFERENCE: '10' });
    ({ client } = await searchClientOf(t));
    off = await createCatalogueTestApp(RECORDS, { SEARCH_LANGUAGE_PREFERENCE: '0' });
    ({ client: offClient } = await searchClientOf(off));
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await off?.close();
  });

  const textPage = (on: SearchClient, query: TravelsQuery) =>
    on.travels({ infoDensity: 'min', size: 20, rrfVectorWeight: 0, ...query });
  const textIds = async (on: SearchClient, search: string) =>
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
