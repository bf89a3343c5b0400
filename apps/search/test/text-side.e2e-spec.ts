import type { CatalogueRecord } from '../src/catalogue/catalogue-record';
import { fillerOffers, makeOffer } from './catalogue-fixtures';
import { catalogueTestAppAround, textSideIds } from './test-app';

/** The text side: optional words, typos, folding, stemming, compounds, coverage. */
const RECORDS: CatalogueRecord[] = [
  makeOffer('T1', {
    name: 'Randonnée au cœur de Zermatt',
    description: 'Chaque jour, une étape à travers les paysages du Valais, face au Cervin.',
    destination: { code: 'CH', name: 'Suisse' },
    categories: [{ slug: 'hiking', name: 'Randonnée' }],
    language: 'fr',
  }),
  makeOffer('T2', {
    name: 'Städtetrip nach Zürich',
    description: 'Schlendern Sie durch Zürich: Cafés, Museen und lebhafte Märkte.',
    destination: { code: 'CH', name: 'Schweiz' },
    categories: [{ slug: 'city-break', name: 'Städtereise' }],
    language: 'de',
  }),
  makeOffer('T3', {
    name: 'Wanderungen im Tirol',
    description: 'Höhenwege und Hütten rund um Innsbruck.',
    destination: { code: 'AT', name: 'Österreich' },
    categories: [{ slug: 'hiking', name: 'Wandern' }],
    language: 'de',
  }),
  makeOffer('T4', {
    name: 'Barcelona city lights',
    description: 'Tapas, markets and the old town.',
    destination: { code: 'ES', name: 'Spain' },
    categories: [{ slug: 'city-break', name: 'City break' }],
    language: 'en',
  }),
  makeOffer('T5', {
    name: 'Beach days in Naxos',
    description: 'Sun and sea on a Greek island.',
    destination: { code: 'GR', name: 'Greece' },
    categories: [{ slug: 'beach', name: 'Beach' }],
    language: 'en',
  }),
  makeOffer('T6', {
    name: 'Naxos by bike',
    description: 'Cycling the quiet roads of the island.',
    destination: { code: 'GR', name: 'Greece' },
    categories: [{ slug: 'cycling', name: 'Cycling' }],
    language: 'en',
  }),
  // Other offers, so that no word above is held by more than a tenth of the catalogue (frequent).
  ...fillerOffers(24, { code: 'FR', name: 'France' }),
];

describe('text side', () => {
  const app = catalogueTestAppAround(RECORDS);

  // rrfVectorWeight 0 in the requests below: the text side alone.
  const textIds = (search: string) => textSideIds(app(), search);

  it('finds a place name with a typo (one edit for 5+ letters, two for 9+)', async () => {
    expect(await textIds('Barcleona')).toEqual(['T4']);
    expect(await textIds('Zermat')).toEqual(['T1']);
  });

  it('finds offers by the rare words of a long French sentence', async () => {
    const ids = await textIds('une semaine de randonnée en Suisse avec vue sur le Cervin');
    expect(ids[0]).toBe('T1');
  });

  it('matches transliterations and accents, and a compound through its parts', async () => {
    expect(await textIds('Zuerich')).toEqual(['T2']);
    expect(await textIds('zurich')).toEqual(['T2']);
    expect(await textIds('Oesterreich')).toEqual(['T3']);
    // the French hike after it, through the travel glossary (glossary.e2e-spec.ts)
    expect(await textIds('Tirolwanderungen')).toEqual(['T3', 'T1']);
  });

  it('ranks an offer holding all the words above one holding some', async () => {
    const ids = await textIds('Naxos beach');
    expect(ids.slice(0, 2)).toEqual(['T5', 'T6']);
  });

  it('answers something when only part of the query matches', async () => {
    expect(await textIds('Naxos xqzwv')).toEqual(expect.arrayContaining(['T5', 'T6']));
  });
});
