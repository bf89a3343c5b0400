import { foldWords } from '../analysis/tokenizer';
import { loadGazetteer } from './gazetteer';
import { loadPlacePrepositions, PlaceFinder } from './place-finder';

describe('PlaceFinder', () => {
  const gazetteer = loadGazetteer();
  const finder = new PlaceFinder(gazetteer, loadPlacePrepositions());
  const mentions = (search: string, language?: 'fr' | 'de' | 'en' | 'it') =>
    finder.mentions(foldWords(search), language).map((mention) => ({
      name: mention.name,
      token: mention.token,
      places: mention.matches.map((match) => match.place.id),
    }));

  it('finds a place by any of its names, the longest name first, words not overlapping', () => {
    expect(mentions('Skiferien im Wallis')).toEqual([
      { name: 'wallis', token: 'wallis', places: ['canton_valais'] },
    ]);
    const [lucerne] = mentions('schifffahrt lago dei quattro cantoni');
    expect(lucerne).toMatchObject({ name: 'lago dei quattro cantoni', token: 'cantoni' });
    expect(mentions('Genève et Lausanne').map((mention) => mention.name)).toEqual(['geneve', 'lausanne']);
  });

  it('leaves out a name that is a common word of the search language', () => {
    expect(mentions('wanderung in den bergen', 'de')).toEqual([]);
    expect(mentions('bergen', 'en').map((mention) => mention.token)).toEqual(['bergen']);
    expect(mentions('bergen').map((mention) => mention.token)).toEqual(['bergen']);
  });

  it('names every language of a place, and the places inside it, nearest first', () => {
    const valais = gazetteer.place('canton_valais')!;
    expect(finder.namesOf(valais)).toEqual(expect.arrayContaining(['valais', 'wallis', 'vallese']));
    const within = finder.withinNames(valais);
    expect(within).toEqual(expect.arrayContaining(['zermatt']));
    expect(within.length).toBeLessThanOrEqual(200);
    expect(within).not.toContain('wallis');
  });

  it('corrects a misspelt one-word name within one edit (two from 9 letters)', () => {
    expect(finder.corrected('islnd')?.name).toBe('island');
    expect(finder.corrected('islnd', 'en')).toBeUndefined();
    expect(finder.corrected('zermat')?.matches.map((match) => match.place.id)).toEqual(['zermatt']);
    expect(finder.corrected('xyzzyqqq')).toBeUndefined();
    expect(finder.corrected('lyon')).toBeUndefined();
  });

  it('counts two adjacent letters swapped as one edit', () => {
    // the search's words as the finder is given them: folded ("pargue" is "pargu", as "prague")
    const corrected = (word: string) =>
      finder.corrected(foldWords(word)[0])?.matches.map((match) => match.place.id);
    expect(corrected('Pargue')).toEqual(['prague']);
    expect(corrected('Vneise')).toEqual(['venice']);
    expect(corrected('Wlaes')).toEqual(['wales']);
    expect(corrected('Zemratt')).toEqual(['zermatt']);
    expect(finder.corrected('vneise')).toMatchObject({ name: 'venise', token: 'vneise' });
    // `wlaes` is folded `wlas` (ae → a), two edits from `wales`: the `e` put back, one
    expect(finder.corrected('wlas')).toMatchObject({ name: 'wales', token: 'wlas' });
    // a swap and another edit are two: none for a word of fewer than 9 letters
    expect(corrected('pagrue')).toBeUndefined();
    expect(corrected('wleas')).toBeUndefined();
  });
});

describe('PlaceFinder: a name that is also a word of the search language', () => {
  const finder = new PlaceFinder(loadGazetteer(), loadPlacePrepositions());
  const tokens = (search: string, language: 'fr' | 'de' | 'en' | 'it') =>
    finder.mentions(foldWords(search), language).map((mention) => mention.token);

  it('is the place right after a preposition of place, the word after an article', () => {
    expect(tokens('ferien in zug', 'de')).toEqual(['zug']);
    expect(tokens('mit dem zug durch die alpen', 'de')).toEqual(['alpen']);
    expect(tokens('wanderung in den bergen', 'de')).toEqual([]);
    expect(tokens('nice beaches', 'en')).toEqual([]);
    expect(tokens('a week in nice', 'en')).toEqual(['nice']);
  });
});
