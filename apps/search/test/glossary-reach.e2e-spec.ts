import type { SearchClient, TravelsQuery } from '@rt/client';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { fillerOffers, languageOffer } from './catalogue-fixtures';
import { catalogueClientAround } from './test-app';

const offer = languageOffer;

/**
 * A glossary that reaches every language's own words (GLOSSARY.md, "Near concepts and items";
 * docs/decisions.md D-83), on offers written for each gap: a French seaside search reached the
 * German and English beach-holiday words, never "plage"; a wine, a cheese or a castle matched
 * only the offers naming it, never the gastronomy or culture offers filed under its theme; a
 * mountain tour reached the mountains, not hiking.
 */
const RECORDS: CatalogueRecord[] = [
  // "séjour balnéaire" (a beach holiday): the beach holiday in German and English, the beach in
  // French and German
  offer('SB-DE1', 'de', 'Strandurlaub auf Sylt', 'Eine Woche Badeurlaub an der Nordsee.'),
  offer('SB-EN1', 'en', 'Beach holiday in Cornwall', 'A week of beach holiday by the Atlantic.'),
  offer('SB-FR1', 'fr', 'Plages de Bretagne', 'Une semaine de plage, de sable fin et de criques.'),
  offer('SB-DE2', 'de', 'Strand und Dünen auf Rügen', 'Eine Woche am Strand der Ostsee.'),
  // wine and cheese: the offers naming them, and gastronomy offers that do not
  offer('WI-EN1', 'en', 'Wine weekend in Lavaux', 'Vineyards, wine cellars and tastings.'),
  offer('CH-FR1', 'fr', 'Fromageries du Jura', 'Caves d’affinage et fromages de montagne.'),
  offer('GA-FR1', 'fr', 'Gastronomie lyonnaise', 'Bouchons, gastronomie et marchés de Lyon.'),
  offer('GA-DE1', 'de', 'Kulinarik im Tessin', 'Genuss, Kulinarik und Grotti am Lago Maggiore.'),
  // castles: an offer naming a castle, and culture offers that do not
  offer('CA-EN1', 'en', 'Castles of the Loire', 'Three castles and their gardens.'),
  offer('CU-DE1', 'de', 'Kulturreise nach Wien', 'Kultur, Oper und Kaffeehäuser.'),
  offer('CU-IT1', 'it', 'Viaggio culturale a Firenze', 'Cultura e botteghe del centro.'),
  // "Bergtour": an offer naming it, and hiking offers that do not
  offer('BT-DE1', 'de', 'Bergtour am Säntis', 'Zwei Tage über den Grat.'),
  offer('HI-FR1', 'fr', 'Randonnée dans le Jura', 'Trois jours sur les crêtes.'),
  offer('HI-DE1', 'de', 'Wanderferien im Emmental', 'Wandern durch die Hügel.'),
  ...fillerOffers(40),
];

describe('a glossary that reaches every language’s own words', () => {
  const client = catalogueClientAround(RECORDS, { SEARCH_LANGUAGE_PREFERENCE: '10' });
  const offClient = catalogueClientAround(RECORDS, { SEARCH_RELATED_WEIGHT: '0' });

  const textPage = (on: () => SearchClient, query: TravelsQuery) =>
    on().travels({ infoDensity: 'min', size: 20, rrfVectorWeight: 0, ...query });
  const textIds = async (on: () => SearchClient, search: string) =>
    (await textPage(on, { search })).records.map((record) => record.id);

  it('a French beach-holiday search reaches the French "plage", first among the beach offers', async () => {
    const ids = await textIds(client, 'séjour balnéaire');
    // the beach holidays cover the search's concept; the beaches a minor part of it, the French first
    expect(ids.slice(0, 2).sort()).toEqual(['SB-DE1', 'SB-EN1']);
    expect(ids.slice(2, 4)).toEqual(['SB-FR1', 'SB-DE2']);
    // without the links, the beaches are not reached
    const off = await textIds(offClient, 'séjour balnéaire');
    expect(off).not.toContain('SB-FR1');
    expect(off).not.toContain('SB-DE2');
  });

  it('explains the beach as a related word covering a minor concept', async () => {
    const { records } = await textPage(client, { search: 'séjour balnéaire', explain: true });
    const beach = records.find((record) => record.id === 'SB-FR1');
    const counted = beach?._explanation?.text.terms.filter((term) => term.counted) ?? [];
    // (the French stem of "plage")
    expect(counted.map((term) => [term.term, term.kind])).toEqual(
      expect.arrayContaining([['plag', 'related']]),
    );
    expect(counted.every((term) => term.kind === 'related' && term.weight === 0.5)).toBe(true);
    expect(beach?._explanation?.text.coverage).toBeLessThan(0.5);
  });

  it('an item reaches its theme: a wine or a cheese the gastronomy offers, below those that name it', async () => {
    for (const [search, named] of [
      ['wine', 'WI-EN1'],
      ['Käse', 'CH-FR1'],
    ]) {
      const ids = await textIds(client, search);
      expect(ids[0]).toBe(named);
      expect(ids).toEqual(expect.arrayContaining(['GA-FR1', 'GA-DE1']));
      for (const theme of ['GA-FR1', 'GA-DE1'])
        expect(ids.indexOf(theme)).toBeGreaterThan(ids.indexOf(named));
      expect(await textIds(offClient, search)).not.toContain('GA-FR1');
    }
  });

  it('a castle search finds the culture offers, below the castle', async () => {
    const ids = await textIds(client, 'Schloss');
    expect(ids[0]).toBe('CA-EN1');
    expect(ids).toEqual(expect.arrayContaining(['CU-DE1', 'CU-IT1']));
    // a theme does not reach its items through a link: culture finds no castle by it
    const culture = await textPage(client, { search: 'Kultur', explain: true });
    for (const record of culture.records) {
      expect(record._explanation?.text.terms.some((term) => term.kind === 'related')).toBe(false);
    }
  });

  it('a compound reaches its meaning: a mountain tour finds the hiking offers, below itself', async () => {
    const ids = await textIds(client, 'Bergtour');
    expect(ids[0]).toBe('BT-DE1');
    expect(ids).toEqual(expect.arrayContaining(['HI-FR1', 'HI-DE1']));
    // the German hike first among the hikes (the search's language)
    expect(ids.indexOf('HI-DE1')).toBeLessThan(ids.indexOf('HI-FR1'));
    expect(await textIds(offClient, 'Bergtour')).not.toContain('HI-FR1');
  });
});
