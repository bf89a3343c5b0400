import type { TravelsQuery } from '@rt/client';
import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { MAJOR_CONCEPT } from '../src/query/analysis/similarity';
import { fillerOffers, makeOffer } from './catalogue-fixtures';
import { catalogueClientAround } from './test-app';

const HIKING = { slug: 'hiking', name: 'Wandern' };
const WELLNESS = { slug: 'wellness', name: 'Wellness' };

const offer = (
  id: string,
  name: string,
  description: string,
  categories = [{ slug: 'other', name: 'Other' }],
  destination = { code: 'CH', name: 'Schweiz' },
): CatalogueRecord => makeOffer(id, { name, description, language: 'de', destination, categories });

/**
 * The text side's index of D-86 (apps/search/README.md, "Compounds" and "Concept coverage"), on
 * offers written for it: an offer's compound is found by its parts (split at index time by the
 * query's splitter, a part counting INDEXED_PART_SHARE of an occurrence), below an offer holding
 * the word itself; and a theme word that many offers hold only in their categories stays a major
 * concept that selects (the frequent-word rule counts the offers holding it elsewhere).
 */
const RECORDS: CatalogueRecord[] = [
  // a day hike and a hut hike, against a hike: the same shape of name and description
  offer('TW-1', 'Tageswanderung im Jura', 'Ein Tag unterwegs mit Picknick.'),
  offer('HW-1', 'Hüttenwanderung im Wallis', 'Von Hütte zu Hütte mit Picknick.'),
  offer('WA-1', 'Wanderung im Emmental', 'Ein Tag unterwegs mit Picknick.'),
  // a region's compound: "Tessinferien" is found by "Tessin", named by another offer
  offer('TE-1', 'Tessinferien am See', 'Sonne und Palmen.'),
  offer('TE-2', 'Wochenende im Tessin', 'Ferien mit Sonne und Palmen.', undefined, {
    code: 'CH',
    name: 'Tessin',
  }),
  // "Wandern", the theme of eight offers that never say it elsewhere (their first or second
  // category), and said by one offer in its name
  ...Array.from({ length: 8 }, (_, i) =>
    offer(
      `TH-${i + 1}`,
      `Bergsommer Nummer ${i + 1}`,
      'Alpweiden und Seen.',
      i % 2 === 0 ? [HIKING] : [WELLNESS, HIKING],
    ),
  ),
  offer('WN-1', 'Wandern im Jura', 'Alpweiden und Seen.'),
  ...fillerOffers(40),
];

describe("offers' compounds split at index time, and category hits out of a word's frequency (D-86)", () => {
  const client = catalogueClientAround(RECORDS, { SEARCH_LANGUAGE_PREFERENCE: '0' });

  const textPage = (query: TravelsQuery) =>
    client().travels({ infoDensity: 'min', size: 30, rrfVectorWeight: 0, ...query });
  const textIds = async (search: string) => (await textPage({ search })).records.map((record) => record.id);

  it('finds an offer holding a compound by the word that is its part, below an offer holding the word', async () => {
    const ids = await textIds('Wanderung');
    expect(ids).toEqual(expect.arrayContaining(['WA-1', 'TW-1', 'HW-1']));
    expect(ids[0]).toBe('WA-1');
    expect(ids.indexOf('WA-1')).toBeLessThan(ids.indexOf('TW-1'));
    const { records } = await textPage({ search: 'Wanderung', explain: true });
    const score = (id: string) => records.find((record) => record.id === id)?.tsvector_score ?? 0;
    expect(score('TW-1')).toBeGreaterThan(0);
    expect(score('TW-1')).toBeLessThan(score('WA-1'));
  });

  it('finds a region compound by the region', async () => {
    const ids = await textIds('Tessin');
    expect(ids).toEqual(expect.arrayContaining(['TE-1', 'TE-2']));
  });

  it('keeps a theme word that many offers hold in their categories a major concept, selecting them', async () => {
    const { records } = await textPage({ search: 'Wandern', explain: true });
    const ids = records.map((record) => record.id);
    // held by 9 of 55 offers (more than FREQUENT_WORD_SHARE), outside their categories by 1
    expect(records[0]._explanation?.text.concepts[0]?.weight).toBe(MAJOR_CONCEPT);
    expect(ids).toEqual(expect.arrayContaining(['WN-1', 'TH-1', 'TH-2', 'TH-8']));
    // the offer naming it first: its name weighs more than a category
    expect(ids[0]).toBe('WN-1');
  });
});
