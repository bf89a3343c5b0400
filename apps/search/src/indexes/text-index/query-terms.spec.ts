import type { QueryWord } from '../../query/analysis/query-words';
import {
  factorOf,
  FREQUENT_WORD_SHARE,
  GENERAL_WORD_SHARE,
  idfOf,
  MAJOR_CONCEPT,
  MINOR_CONCEPT,
  STOP_WEIGHT,
} from '../../query/analysis/similarity';
import type { AnalysedTerm } from './query-analyser';
import { holdsContentWord, queryTermsOf, textQueryOf } from './query-terms';

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

  it("counts a word's frequency without the offers holding it only in their categories, its idf with them (D-86)", () => {
    // "wandern": 2,000 of 10,000 offers hold it, 300 outside their categories (a theme word)
    const terms = queryTermsOf(
      [
        { ...term(word(1), 'wandern', 2_000), frequency: 300 },
        term(word(1), 'hiking', 400, 'glossary', 0.9),
        term(word(2), 'hotel', 2_000),
      ],
      10_000,
      { words: ['wandern', 'hotel'], genericWords: [] },
    );
    const [wandern, hiking, hotel] = terms;
    expect(wandern.frequent).toBe(false);
    expect(wandern.conceptWeight).toBe(MAJOR_CONCEPT);
    expect(wandern.idf).toBe(idfOf(2_000, 10_000));
    // the word lends its idf (all its offers) to its translation, which never scores as rarer
    expect(hiking.conceptDocuments).toBe(2_000);
    expect(hiking.frequent).toBe(false);
    expect(hotel.frequent).toBe(true);
    expect(hotel.conceptWeight).toBe(MINOR_CONCEPT);
    expect(textQueryOf(terms).terms.map((t) => t.selects)).toEqual([true, true, false]);
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

  it('weighs a general or frequent word as a minor concept, and stop words as none, even alone', () => {
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
    expect(stops.map((t) => t.conceptWeight)).toEqual([0, 0]);
  });

  it('never lets a function word select, even a rare one, nor when nothing else matches', () => {
    // "qqxvzk nei wbrtlp": the random words match nothing; "nei" (Italian "in the") is rare
    const words = { words: ['qqxvzk', 'nei', 'wbrtlp'], genericWords: [], functionWords: ['nei'] };
    const alone = queryTermsOf([term(word(2), 'nei', 40)], 10_000, words);
    expect(alone.map((t) => [t.term, t.conceptWeight, t.frequent])).toEqual([['nei', 0, true]]);
    expect(holdsContentWord(alone)).toBe(false);
    expect(textQueryOf(alone).terms.map((t) => t.selects)).toEqual([false]);
    // a stop word alone: the rarest word that is not one would select, and there is none
    const stop = queryTermsOf([term(word(2), 'in', 9_500, 'stop', 0.1)], 10_000);
    expect(textQueryOf(stop).terms.map((t) => t.selects)).toEqual([false]);
    // beside a content word, the function word adds to its offers' score at the stop weight
    const beside = queryTermsOf([term(word(1), 'trekking', 300), term(word(2), 'nei', 40)], 10_000, {
      words: ['trekking', 'nei'],
      genericWords: [],
      functionWords: ['nei'],
    });
    expect(holdsContentWord(beside)).toBe(true);
    expect(textQueryOf(beside).terms.map((t) => [t.term, t.selects])).toEqual([
      ['trekking', true],
      ['nei', false],
    ]);
    const [, nei] = beside;
    expect(nei.factor).toBeCloseTo(factorOf(STOP_WEIGHT, nei.conceptIdf), 6);
    // a place's word is the place, function word or not ("Sur" of Big Sur: the gazetteer decides)
    const place = queryTermsOf([term(word(1), 'sur', 30, 'place', 1)], 10_000, {
      words: ['sur'],
      genericWords: [],
      functionWords: ['sur'],
      placeWords: ['sur'],
    });
    expect(place.map((t) => t.frequent)).toEqual([false]);
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

describe('one idf per concept (D-53)', () => {
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

  it("lends a frequent word's idf to none of its expansions: a rarer translation keeps its own (FREQUENT_WORD_SHARE)", () => {
    const offers = 10_000;
    const frequent = Math.ceil(FREQUENT_WORD_SHARE * offers) + 1;
    const [, rundreise] = queryTermsOf(
      [term(word(1), 'tour', frequent), term(word(1), 'rundreis', 300, 'glossary', 0.9)],
      offers,
    );
    expect(rundreise.conceptDocuments).toBe(300);
    expect(rundreise.conceptIdf).toBe(idfOf(300, offers));
    // a word held by fewer offers still lends its idf
    const [, wanderung] = queryTermsOf(
      [
        term(word(1), 'randonnee', FREQUENT_WORD_SHARE * offers),
        term(word(1), 'wanderung', 300, 'glossary', 0.9),
      ],
      offers,
    );
    expect(wanderung.conceptDocuments).toBe(FREQUENT_WORD_SHARE * offers);
  });

  it('scores an expansion counted for several words once, for the heaviest of them, and lets it cover each', () => {
    // "vacances à la plage": the beach-holiday concept counts for "vacances" (general) and "plage"
    const terms = queryTermsOf(
      [
        term(word(1), 'vacanc', 15),
        term(word(4), 'plag', 34),
        term(word(1), 'strandurlaub', 7, 'glossary', 0.9),
        term(word(4), 'strandurlaub', 7, 'glossary', 0.9),
      ],
      2_000,
      { words: ['vacances', 'a', 'la', 'plage'], genericWords: ['vacances'] },
    );
    const [, , forVacances, forPlage] = terms;
    expect(forVacances.factor).toBe(0);
    expect(forPlage.factor).toBeGreaterThan(0);
    expect([forVacances.conceptWeight, forPlage.conceptWeight]).toEqual([MINOR_CONCEPT, MAJOR_CONCEPT]);
    // of equal words, the first: "Panoramazug" for "viaggio in treno" is one match
    const [first, second] = queryTermsOf(
      [term(word(1), 'panoramazug', 18, 'glossary', 0.9), term(word(3), 'panoramazug', 18, 'glossary', 0.9)],
      2_000,
    );
    expect(first.factor).toBeGreaterThan(0);
    expect(second.factor).toBe(0);
    expect(second.conceptWeight).toBe(MAJOR_CONCEPT);
  });

  it('scores a general word a share of its parts beside a heavier word, not a merely frequent one (GENERAL_WORD_SHARE)', () => {
    const offers = 2_000;
    const analysed = [
      term(word(1), 'food', 114),
      term(word(2), 'tour', 33),
      term(word(2), 'rundreis', 106, 'glossary', 0.9),
      term(word(3), 'trip', 400),
    ];
    const alone = queryTermsOf(analysed, offers);
    const [food, tour, rundreise, trip] = queryTermsOf(analysed, offers, {
      words: ['food', 'tour', 'trip'],
      genericWords: ['tour'],
    });
    expect(food.factor).toBe(alone[0].factor);
    expect(tour.factor).toBe(alone[1].factor * GENERAL_WORD_SHARE);
    expect(rundreise.factor).toBe(alone[2].factor * GENERAL_WORD_SHARE);
    // "trip" is minor for being frequent: BM25's idf already says little of it
    expect(trip.conceptWeight).toBe(MINOR_CONCEPT);
    expect(trip.factor).toBe(alone[3].factor);
    // a search of general words alone scores them whole
    const [holiday] = queryTermsOf([term(word(1), 'holiday', 50)], offers, {
      words: ['holiday'],
      genericWords: ['holiday'],
    });
    expect(holiday.conceptWeight).toBe(MINOR_CONCEPT);
    expect(holiday.factor).toBe(queryTermsOf([term(word(1), 'holiday', 50)], offers)[0].factor);
  });

  it('weighs a word found only by a typo correction as a minor concept in a sentence, not in a short search', () => {
    const analysed = [
      term(word(3), 'fire', 28, 'typo', 0.6),
      term(word(5), 'road', 60),
      term(word(8), 'island', 43),
    ];
    const sentence = queryTermsOf(analysed, 2_000, {
      words: ['je', 'voudrais', 'faire', 'un', 'road', 'trip', 'en', 'islande'],
      genericWords: [],
      shortSearch: false,
    });
    expect(sentence.map((t) => t.conceptWeight)).toEqual([MINOR_CONCEPT, MAJOR_CONCEPT, MAJOR_CONCEPT]);
    // it still scores whole: a guess, not a general word
    expect(sentence[0].factor).toBe(queryTermsOf(analysed, 2_000)[0].factor);
    const short = queryTermsOf([term(word(1), 'ski', 100, 'typo', 0.6)], 2_000, {
      words: ['skii'],
      genericWords: [],
      shortSearch: true,
    });
    expect(short[0].conceptWeight).toBe(MAJOR_CONCEPT);
    // a misspelt word with a form of its own (its stem) is no guess
    const own = queryTermsOf(
      [term(word(1), 'wander', 30), term(word(1), 'wandern', 25, 'typo', 0.6)],
      2_000,
      {
        words: ['wandrn', 'im', 'sommer', 'mit', 'kindern'],
        genericWords: [],
        shortSearch: false,
      },
    );
    expect(own.map((t) => t.conceptWeight)).toEqual([MAJOR_CONCEPT, MAJOR_CONCEPT]);
  });

  it("prefers the search's guessed language only when one is guessed and the strength is above 0", () => {
    const terms = queryTermsOf([term(word(1), 'randonnee', 100)], 10_000);
    expect(textQueryOf(terms, { language: 'fr', strength: 0.5 }).language).toEqual({ code: 1, factor: 1.5 });
    expect(textQueryOf(terms, { language: 'fr', strength: 0 }).language).toBeUndefined();
    expect(textQueryOf(terms, { language: null, strength: 0.5 }).language).toBeUndefined();
    expect(textQueryOf(terms).language).toBeUndefined();
  });

  it('lets a related word (a near concept, an item\u2019s theme) cover its word as a minor concept only', () => {
    const terms = queryTermsOf(
      [
        term(word(1), 'chateau', 20),
        term(word(1), 'schloss', 30, 'glossary', 0.9),
        term(word(1), 'culture', 90, 'related', 0.5),
      ],
      10_000,
    );
    expect(terms.map((t) => [t.term, t.conceptWeight])).toEqual([
      ['chateau', MAJOR_CONCEPT],
      ['schloss', MAJOR_CONCEPT],
      ['culture', MINOR_CONCEPT],
    ]);
    // the word's coverable weight stays its own: an offer holding only the theme covers a quarter
    expect(textQueryOf(terms).coverable).toBe(MAJOR_CONCEPT);
    // a minor word (general or frequent) is covered by no related word
    const general = queryTermsOf(
      [term(word(1), 'vacances', 50), term(word(1), 'plage', 40, 'related', 0.5), term(word(2), 'plage', 40)],
      10_000,
      { words: ['vacances', 'plage'], genericWords: ['vacances'] },
    );
    expect(general.map((t) => [t.term, t.conceptWeight])).toEqual([
      ['vacances', MINOR_CONCEPT],
      ['plage', 0],
      ['plage', MAJOR_CONCEPT],
    ]);
    expect(general[1].factor).toBe(0);
  });
});
