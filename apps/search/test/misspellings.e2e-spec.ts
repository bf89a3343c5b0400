import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { fillerOffers, makeOffer } from './catalogue-fixtures';
import { catalogueClientAround } from './test-app';

/**
 * Misspelt searches: a swap of two adjacent letters is one edit for places and words
 * alike (`Pargue`, `Vneise`, `Wlaes`), a 4-letter word is corrected toward a much more frequent
 * word (`skii`), and explain lists the words that matched no form (`unmatched_words`).
 */
const city = (id: string, name: string, code: string, country: string, language: 'fr' | 'de' | 'en') =>
  makeOffer(id, {
    name,
    description: 'Old town, museums and cafés.',
    destination: { code, name: country },
    categories: [{ slug: 'city-break', name: 'City break' }],
    language,
  });
const roadTrip = (id: string, name: string, code: string, country: string) =>
  makeOffer(id, {
    name,
    description: 'A hire car, a route and a bed each night.',
    destination: { code, name: country },
    categories: [{ slug: 'road-trip', name: 'Road trip' }],
    language: 'en',
  });
const ski = (id: string, name: string) =>
  makeOffer(id, {
    name,
    description: 'Lift pass, chalet and slopes.',
    destination: { code: 'CH', name: 'Switzerland' },
    categories: [{ slug: 'ski', name: 'Ski' }],
    language: 'en',
  });

const RECORDS: CatalogueRecord[] = [
  city('P1', 'Prague long weekend', 'CZ', 'Czech Republic', 'en'),
  city('P2', 'Zurich city break', 'CH', 'Switzerland', 'en'),
  city('P3', 'Vienna city break', 'AT', 'Austria', 'en'),
  city('V1', 'Week-end à Venise', 'IT', 'Italie', 'fr'),
  city('V2', 'Week-end à Rome', 'IT', 'Italie', 'fr'),
  city('V3', 'Week-end à Vienne', 'AT', 'Autriche', 'fr'),
  roadTrip('W1', 'Wales road trip: Snowdonia to Pembrokeshire', 'GB', 'United Kingdom'),
  roadTrip('W2', 'Iceland road trip', 'IS', 'Iceland'),
  roadTrip('W3', 'Bavaria road trip', 'DE', 'Germany'),
  ski('S1', 'Ski week in Verbier'),
  ski('S2', 'Ski safari in the Engadin'),
  ski('S3', 'Family ski days in Saas-Fee'),
  ski('S4', 'Ski and spa in Davos'),
  ski('S5', 'Ski touring in the Alps'),
  // Other offers, so that no word above is held by more than a tenth of the catalogue (frequent).
  ...fillerOffers(45),
];

describe('misspelt searches', () => {
  const client = catalogueClientAround(RECORDS);

  const ids = async (text: string) =>
    (await client().travels({ search: text, infoDensity: 'min', size: 20 })).records.map(
      (record) => record.id,
    );
  const explained = async (text: string) => {
    const listing = await client().travels({ search: text, infoDensity: 'min', size: 20, explain: true });
    return listing.records.map((record) => ({ id: record.id, text: record._explanation!.text }));
  };

  it('ranks the place a transposed name means first, not the other words alone', async () => {
    expect((await ids('Pargue city break'))[0]).toBe('P1');
    expect((await ids('Vneise week-end'))[0]).toBe('V1');
    expect((await ids('Wlaes road trip'))[0]).toBe('W1');
    // the other words still answer, after the place
    expect(await ids('Pargue city break')).toEqual(expect.arrayContaining(['P2', 'P3']));
  });

  it('answers `skii` with the ski offers: one edit toward a much more frequent word', async () => {
    const found = await ids('skii');
    expect(found.slice(0, 5).sort()).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    const [first] = await explained('skii');
    expect(first.text.terms).toEqual(
      expect.arrayContaining([expect.objectContaining({ word: 'skii', term: 'ski', kind: 'typo' })]),
    );
    expect(first.text.unmatched_words).toEqual([]);
  });

  it('lists in explain the words that matched no form, stop words aside', async () => {
    const records = await explained('ski in the qqxvzk');
    expect(
      records
        .map((record) => record.id)
        .slice(0, 5)
        .sort(),
    ).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    for (const record of records) expect(record.text.unmatched_words).toEqual(['qqxvzk']);
    expect((await explained('Wlaes qqxvzk'))[0]).toMatchObject({
      id: 'W1',
      text: { unmatched_words: ['qqxvzk'] },
    });
  });

  it('still answers nothing to nonsense', async () => {
    for (const nonsense of ['qqxvzk', 'jjkw', 'xyzzyqqq', 'vvxqq jjkw'])
      expect(await ids(nonsense)).toEqual([]);
  });
});
