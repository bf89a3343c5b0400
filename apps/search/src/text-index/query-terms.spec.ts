import type { QueryWord } from '../analysis/query-words';
import { idfOf, MAJOR_CONCEPT, MINOR_CONCEPT } from '../analysis/similarity';
import type { AnalysedTerm } from './query-analyser';
import { queryTermsOf, textQueryOf } from './query-terms';

const word = (position: number): QueryWord => ({ kind: 'word', position });
const tail = (position: number): QueryWord => ({ kind: 'tail', position });
const pair = (position: number): QueryWord => ({ kind: 'pair', position });

const term = (
  word: QueryWord,
  name: string,
  documents: number,
  kind: AnalysedTerm['kind'] = 'exact',
  weight = 1,
): AnalysedTerm => ({
  word,
  term: name,
  documents,
  kind,
  weight: Math.fround(weight),
});

describe('query terms', () => {
  it("weighs a term by its weight times BM25's idf to the power 1.5", () => {
    const [ski] = queryTermsOf([term(word(1), 'ski', 100, 'typo', 0.6)], 10_000);
    expect(ski.idf).toBe(Math.log(1 + (10_000 - 100 + 0.5) / (100 + 0.5)));
    expect(ski.factor).toBe(Math.fround(0.6) * Math.pow(idfOf(100, 10_000), 1.5));
    expect(ski.frequent).toBe(false);
  });

  it('marks stop words, frequent terms and the expansions of a frequent word frequent', () => {
    const terms = queryTermsOf(
      [
        term(word(1), 'hotel', 2_000),
        term(word(1), 'hebergement', 50, 'glossary', 0.3),
        term(word(2), 'lac', 300),
        term(word(2), 'see', 50, 'glossary', 0.3),
        term(word(3), 'de', 9_000, 'stop', 0.1),
      ],
      10_000,
    );
    expect(terms.map((t) => [t.term, t.frequent])).toEqual([
      ['hotel', true],
      ['hebergement', true],
      ['lac', false],
      ['see', false],
      ['de', true],
    ]);
  });

  it('selects by the non-frequent words; a word covers its concept weight by any form; stop words and pairs cover nothing', () => {
    const query = textQueryOf(
      queryTermsOf(
        [
          term(word(1), 'ski', 100),
          term(word(1), 'skis', 50, 'typo', 0.6),
          term(word(1), 'sci', 40, 'glossary', 0.9),
          term(word(2), 'de', 9_000, 'stop', 0.1),
          term(pair(2), 'ski de', 3, 'phrase', 0.5),
          term(word(3), 'wallis', 30),
        ],
        10_000,
      ),
    );
    expect(query.terms.map((t) => [t.term, t.selects, t.conceptWeight])).toEqual([
      ['ski', true, MAJOR_CONCEPT],
      ['skis', true, MAJOR_CONCEPT],
      ['sci', true, MAJOR_CONCEPT],
      ['de', false, 0],
      ['ski de', false, 0],
      ['wallis', true, MAJOR_CONCEPT],
    ]);
    expect(query.coverable).toBe(2 * MAJOR_CONCEPT);
  });

  it('weighs a general or frequent word as a minor concept, and stop words alone as minor ones', () => {
    const terms = queryTermsOf(
      [
        term(word(1), 'ferien', 120),
        term(word(2), 'hotel', 2_000),
        term(word(3), 'zermatt', 30),
        term(tail(4), 'ferien', 120),
      ],
      10_000,
      { words: ['ferien', 'hotel', 'zermatt', 'skiferien'], genericWords: ['ferien'] },
    );
    expect(terms.map((t) => [t.word, t.conceptWeight])).toEqual([
      [word(1), MINOR_CONCEPT],
      [word(2), MINOR_CONCEPT],
      [word(3), MAJOR_CONCEPT],
      [tail(4), MINOR_CONCEPT],
    ]);
    const stops = queryTermsOf(
      [term(word(1), 'the', 9_000, 'stop', 0.1), term(word(2), 'in', 9_500, 'stop', 0.1)],
      10_000,
    );
    expect(stops.map((t) => t.conceptWeight)).toEqual([MINOR_CONCEPT, MINOR_CONCEPT]);
  });

  it('lets the rarest word select when every word is frequent', () => {
    const query = textQueryOf(
      queryTermsOf(
        [
          term(word(1), 'the', 9_000, 'stop', 0.1),
          term(word(2), 'hotel', 2_000),
          term(word(3), 'in', 9_500, 'stop', 0.1),
        ],
        10_000,
      ),
    );
    expect(query.terms.map((t) => [t.term, t.selects])).toEqual([
      ['the', false],
      ['hotel', true],
      ['in', false],
    ]);
    // equally rare: the first in analysis order (a compound's tail before the words)
    const tied = textQueryOf(
      queryTermsOf([term(word(1), 'ferien', 2_000), term(tail(2), 'ferien', 2_000, 'compound', 0.8)], 10_000),
    );
    expect(tied.terms.map((t) => [t.word, t.selects])).toEqual([
      [word(1), false],
      [tail(2), true],
    ]);
  });
});

describe('one idf per concept (issue 48)', () => {
  it('scores a translation rarer than the word as held by as many offers as the word, so it never outscores it', () => {
    const terms = queryTermsOf(
      [
        term(word(1), 'randonnee', 115),
        term(word(1), 'randon', 120),
        term(word(1), 'wanderung', 6, 'glossary', 0.9),
        term(word(1), 'hiking', 900, 'glossary', 0.9),
        term(word(2), 'zermatt', 30),
        term(word(3), 'radtour', 4, 'glossary', 0.9),
      ],
      10_000,
    );
    const [randonnee, randon, wanderung, hiking, zermatt, radtour] = terms;
    // the word's own forms keep their own document frequency (the best of them counts)
    expect(randonnee.conceptDocuments).toBe(115);
    expect(randon.conceptDocuments).toBe(120);
    // a rarer translation counts as held by as many offers as the word's rarest form
    expect(wanderung.conceptDocuments).toBe(115);
    expect(wanderung.conceptIdf).toBe(idfOf(115, 10_000));
    expect(wanderung.factor / randonnee.factor).toBeCloseTo(Math.fround(0.9), 12);
    // its own idf stays (which word is the rarest when all are frequent)
    expect(wanderung.idf).toBe(idfOf(6, 10_000));
    // a commoner one keeps its own: never a higher idf than the word's
    expect(hiking.conceptDocuments).toBe(900);
    expect(hiking.factor).toBeLessThan(wanderung.factor);
    // another word keeps its own; a word the index holds in no own form, its expansions theirs
    expect(zermatt.conceptDocuments).toBe(30);
    expect(radtour.conceptDocuments).toBe(4);
  });

  it('covers a place only in the fields that say where an offer is (placeOnly); other words anywhere', () => {
    const query = textQueryOf(
      queryTermsOf(
        [
          term(word(1), 'zurich', 40),
          term(word(1), 'zuri', 5, 'place', 0.9),
          term(word(2), 'randonnee', 100),
        ],
        10_000,
        { words: ['zurich', 'randonnee'], genericWords: [], placeWords: ['zurich'] },
      ),
    );
    expect(query.terms.map((t) => [t.term, t.placeOnly])).toEqual([
      ['zurich', true],
      ['zuri', true],
      ['randonnee', false],
    ]);
  });

  it("prefers the search's guessed language only when one is guessed and the strength is above 0", () => {
    const terms = queryTermsOf([term(word(1), 'randonnee', 100)], 10_000);
    expect(textQueryOf(terms, { language: 'fr', strength: 0.5 }).language).toEqual({ code: 1, factor: 1.5 });
    expect(textQueryOf(terms, { language: 'fr', strength: 0 }).language).toBeUndefined();
    expect(textQueryOf(terms, { language: null, strength: 0.5 }).language).toBeUndefined();
    expect(textQueryOf(terms).language).toBeUndefined();
  });
});
