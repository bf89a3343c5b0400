import { loadOfferPlacer, PLACING_RULES_VERSION, placingVersion } from './offer-placer';
import { TEST_POINTS, testPlacer } from './offer-placer.spec-helper';
import type { PlaceableOffer } from './offer-placer';

const offer = (overrides: Partial<PlaceableOffer>): PlaceableOffer => ({
  name: 'Une semaine',
  description: null,
  destinationCode: 'CH',
  destinationName: 'Suisse',
  language: 'fr',
  ...overrides,
});

describe('OfferPlacer', () => {
  const placer = testPlacer();

  it('places an offer at the place its description names, with every place containing it and its country', () => {
    expect(placer.place(offer({ description: 'Un chalet à Zermatt. Ski tous les jours.' }))).toEqual({
      places: ['canton_valais', 'ch', 'mattertal', 'upper_valais', 'zermatt'],
      points: [TEST_POINTS.zermatt],
    });
  });

  it("a place's own countries count, not those of the places containing it (a range's members)", () => {
    const placed = placer.place(offer({ description: 'Au pied du Cervin.' }));
    expect(placed.places).toEqual(['alps', 'ch', 'it', 'matterhorn', 'pennine_alps']);
    expect(placed.points).toEqual([]);
  });

  it('does not place an offer where it departs or returns, nor at the places listed after', () => {
    const cases: [string, string, string][] = [
      ['fr', 'Zermatt', 'Ski à Zermatt. Départ de Genève, Bâle ou Zurich.'],
      ['fr', 'Zermatt', 'Au départ de Genève : une semaine à Zermatt, retour à Bâle.'],
      ['de', 'Zermatt', 'Skiwoche in Zermatt, Abfahrt ab Zürich oder Basel.'],
      ['en', 'Zermatt', 'Departing from Geneva and Basel, a week in Zermatt.'],
      ['it', 'Zermatt', 'Una settimana a Zermatt, partenza da Ginevra o Basilea.'],
    ];
    for (const [language, name, description] of cases) {
      const placed = placer.place(offer({ language, name, description }));
      expect(placed.places).toContain('zermatt');
      expect(placed.places).not.toContain('geneva');
      expect(placed.places).not.toContain('basel');
      expect(placed.places).not.toContain('zurich');
      expect(placed.points).toEqual([TEST_POINTS.zermatt]);
    }
  });

  it('a list of departures ends with its clause: a place named in the next sentence counts', () => {
    const placed = placer.place(offer({ description: 'Départ de Genève. Zurich et ses musées.' }));
    expect(placed.places).toContain('zurich');
    expect(placed.places).not.toContain('geneva');
  });

  it('an offer with only a destination country is in that country, with no point', () => {
    expect(
      placer.place(offer({ destinationCode: 'it', destinationName: 'Italie', description: 'Dolce vita.' })),
    ).toEqual({ places: ['it'], points: [] });
    expect(placer.place(offer({ destinationCode: null, destinationName: null }))).toEqual({
      places: [],
      points: [],
    });
  });

  it('a country named in the text is a place with no point (a country has no point of its own)', () => {
    const placed = placer.place(offer({ destinationCode: null, description: 'Toute la Suisse en train.' }));
    expect(placed).toEqual({ places: ['ch'], points: [] });
  });

  it('a name several places carry counts for those in the destination country, else for none', () => {
    // Zug: the canton and its town, both in Switzerland
    expect(placer.place(offer({ language: 'en', description: 'A week in Zug.' })).places).toEqual([
      'canton_zug',
      'ch',
      'zug',
    ]);
  });

  it('a place abroad that the text names (one place of that name) counts, with its country', () => {
    const placed = placer.place(offer({ description: 'De Zermatt à Chamonix par la Haute Route.' }));
    expect(placed.places).toEqual(expect.arrayContaining(['zermatt', 'chamonix', 'fr', 'ch']));
    expect(placed.points).toEqual([TEST_POINTS.zermatt, TEST_POINTS.chamonix]);
  });

  it('a name that is a common word of the offer language is that word, unless a preposition puts it', () => {
    const en = (description: string) =>
      placer.place(offer({ language: 'en', destinationCode: 'FR', destinationName: 'France', description }));
    expect(en('Nice views and good food.').places).toEqual(['fr']);
    expect(en('A week in Nice.').places).toContain('nice');
    expect(
      placer.place(
        offer({ language: null, destinationCode: 'FR', destinationName: null, description: 'Nice views.' }),
      ).places,
    ).toEqual(['fr']);
    expect(
      placer.place(offer({ language: 'fr', destinationCode: 'FR', description: 'Nice et la côte.' })).places,
    ).toContain('nice');
  });

  it('the committed placer loads, and its version changes with the rules', () => {
    const committed = loadOfferPlacer();
    expect(committed.version).toMatch(/^[0-9a-f]{32}$/);
    expect(committed.place(offer({ description: 'Zermatt' })).places).toContain('zermatt');
    const paths = [__filename];
    expect(placingVersion(paths)).toBe(placingVersion(paths, PLACING_RULES_VERSION));
    expect(placingVersion(paths, PLACING_RULES_VERSION + 1)).not.toBe(placingVersion(paths));
  });
});
