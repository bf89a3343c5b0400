import type { QueryWord } from '../../query/analysis/query-words';
import { idfOf, MAJOR_CONCEPT, partOf, SCALE } from '../../query/analysis/similarity';
import type { ScoreRecorder } from '../../query/analysis/similarity';
import { filterColumnsOf } from './offer-filters.spec-helper';
import type { AnalysedTerm } from './query-analyser';
import { queryTermsOf, textQueryOf } from './query-terms';
import type { QueryTerm } from './query-terms';
import { explainTerms, queryConceptsOf } from './text-explain';
import { readQueryText } from '../../query/analysis/analysed-query';
import type { ExplainTermRow } from './text-explain';
import { TextIndex } from './text-index';

const word = (position: number): QueryWord => ({ kind: 'word', position });
const tail = (position: number): QueryWord => ({ kind: 'tail', position });
const pair = (position: number): QueryWord => ({ kind: 'pair', position });

/** Postings by term: [offer ordinal, impact]. Offer 4 holds only the pair. */
const POSTINGS: Record<string, [number, number][]> = {
  ski: [
    [0, 1.1],
    [1, 0.9],
  ],
  skis: [
    [0, 1.4],
    [2, 0.7],
  ],
  'ski zermatt': [
    [0, 0.8],
    [4, 0.6],
  ],
  zermatt: [
    [0, 1.5],
    [2, 1.6],
  ],
  gletscher: [[1, 1.2]],
  wander: [
    [1, 1],
    [3, 0.9],
  ],
};

const index = (() => {
  const ids = ['OFFER-0', 'OFFER-1', 'OFFER-2', 'OFFER-3', 'OFFER-4'];
  const postings = new Map(
    Object.entries(POSTINGS).map(([term, entries]) => [
      term,
      {
        ordinals: Int32Array.from(entries, ([ordinal]) => ordinal),
        impacts: Float32Array.from(entries, ([, impact]) => impact),
      },
    ]),
  );
  return new TextIndex('1', ids, postings, filterColumnsOf(ids.map(() => 'CH')), ids.length);
})();

const analysed = (
  word: QueryWord,
  term: string,
  kind: AnalysedTerm['kind'],
  weight: number,
): AnalysedTerm => ({
  word,
  term,
  documents: POSTINGS[term].length,
  weight: Math.fround(weight),
  kind,
});

/** "Ski Zermatt Gletscherwanderung": a word of two forms, a pair, and a compound's head and tail. */
const SEARCH = 'Ski Zermatt Gletscherwanderung';
const WORDS = readQueryText(SEARCH).words;
/** Weighed against a catalogue of 1,000 offers: no term is frequent, every word a major concept. */
const TERMS = queryTermsOf(
  [
    analysed(word(1), 'ski', 'exact', 1),
    analysed(word(1), 'skis', 'typo', 0.6),
    analysed(pair(2), 'ski zermatt', 'phrase', 0.5),
    analysed(word(2), 'zermatt', 'exact', 1),
    analysed(word(3), 'gletscher', 'compound', 0.8),
    analysed(tail(3), 'wander', 'compound', 0.8),
  ],
  1_000,
);

/** The part of `term` for the posting of impact `impact`. */
const part = (terms: QueryTerm[], term: string, impact: number) =>
  partOf(terms.find((t) => t.term === term)!.factor, Math.fround(impact));

/** A row of the explain mode, its offer's figures given. */
function row(
  id: string,
  offer: { matches: boolean; coverage: number | null; score: number | null },
  fields: Pick<ExplainTermRow, 'word' | 'token' | 'term' | 'kind' | 'weight' | 'part' | 'best' | 'covers'>,
): ExplainTermRow {
  const contribution = offer.coverage === null ? null : (fields.part / SCALE) * offer.coverage;
  return { id, ...fields, ...offer, contribution, place: null, languageFactor: 1 };
}

describe('explainTerms', () => {
  it('gives every term an offer holds with its part, its word best form first, and the offer coverage and score', () => {
    const p = (term: string, impact: number) => part(TERMS, term, impact);
    // offer 0: word 1 by both forms ("ski" the best), the pair and word 2: 8 of 16 concept weight
    const offer0 = {
      matches: true,
      coverage: 0.5,
      score: ((p('ski', 1.1) + p('ski zermatt', 0.8) + p('zermatt', 1.5)) / SCALE) * 0.5,
    };
    // offer 1: word 1, and word 3 by its head and by its tail: 12 of 16
    const offer1 = {
      matches: true,
      coverage: 0.75,
      score: ((p('ski', 0.9) + p('gletscher', 1.2) + p('wander', 1)) / SCALE) * 0.75,
    };
    // offer 4 holds only the pair, which selects no offer and covers no concept
    const offer4 = { matches: false, coverage: 0, score: (p('ski zermatt', 0.6) / SCALE) * 0 };
    const compound = 'gletscherwanderung';
    expect(
      explainTerms(index, { terms: TERMS, words: WORDS }, ['OFFER-1', 'NOPE', 'OFFER-0', 'OFFER-4']),
    ).toEqual([
      row('OFFER-1', offer1, {
        word: word(1),
        token: 'ski',
        term: 'ski',
        kind: 'exact',
        weight: 1,
        part: p('ski', 0.9),
        best: true,
        covers: true,
      }),
      // a compound's tail before its head
      row('OFFER-1', offer1, {
        word: tail(3),
        token: compound,
        term: 'wander',
        kind: 'compound',
        weight: 0.8,
        part: p('wander', 1),
        best: true,
        covers: true,
      }),
      row('OFFER-1', offer1, {
        word: word(3),
        token: compound,
        term: 'gletscher',
        kind: 'compound',
        weight: 0.8,
        part: p('gletscher', 1.2),
        best: true,
        covers: true,
      }),
      row('OFFER-0', offer0, {
        word: word(1),
        token: 'ski',
        term: 'ski',
        kind: 'exact',
        weight: 1,
        part: p('ski', 1.1),
        best: true,
        covers: true,
      }),
      row('OFFER-0', offer0, {
        word: word(1),
        token: 'ski',
        term: 'skis',
        kind: 'typo',
        weight: 0.6,
        part: p('skis', 1.4),
        best: false,
        covers: true,
      }),
      row('OFFER-0', offer0, {
        word: word(2),
        token: 'zermatt',
        term: 'zermatt',
        kind: 'exact',
        weight: 1,
        part: p('zermatt', 1.5),
        best: true,
        covers: true,
      }),
      // the pair ending at word 2, after it
      row('OFFER-0', offer0, {
        word: pair(2),
        token: 'ski zermatt',
        term: 'ski zermatt',
        kind: 'phrase',
        weight: 0.5,
        part: p('ski zermatt', 0.8),
        best: true,
        covers: false,
      }),
      row('OFFER-4', offer4, {
        word: pair(2),
        token: 'ski zermatt',
        term: 'ski zermatt',
        kind: 'phrase',
        weight: 0.5,
        part: p('ski zermatt', 0.6),
        best: true,
        covers: false,
      }),
    ]);
    expect(p('skis', 1.4)).toBeLessThan(p('ski', 1.1));
  });

  it('gives the scores the search ranks by, so that a floor keeps the offers it keeps', () => {
    const matches = index.match(textQueryOf(TERMS));
    expect(Array.from(matches.ordinals)).toEqual([0, 1, 2, 3]);
    const explained = new Map(
      explainTerms(index, { terms: TERMS, words: WORDS }, index.ids).map((row) => [
        index.ordinalOf(row.id)!,
        row,
      ]),
    );
    for (const ordinal of matches.ordinals) {
      expect([ordinal, explained.get(ordinal)?.score]).toEqual([ordinal, matches.scoreOf(ordinal)]);
    }
    const floor = matches.scoreOf(2)!;
    const kept = matches.best(10, floor).map((match) => match.ordinal);
    const explainedKept = [...explained.values()]
      .filter((row) => row.matches && row.score !== null && row.score >= floor)
      .map((row) => index.ordinalOf(row.id));
    expect(kept.sort()).toEqual(explainedKept.sort());
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThan(4);
  });

  it('gives no coverage or score (kept by no floor) when nothing of the query is coverable', () => {
    const pairOnly = queryTermsOf([analysed(pair(2), 'ski zermatt', 'phrase', 0.5)], 1_000);
    expect(explainTerms(index, { terms: pairOnly, words: WORDS }, ['OFFER-0'])).toEqual([
      row(
        'OFFER-0',
        { matches: false, coverage: null, score: null },
        {
          word: pair(2),
          token: 'ski zermatt',
          term: 'ski zermatt',
          kind: 'phrase',
          weight: 0.5,
          part: part(pairOnly, 'ski zermatt', 0.8),
          best: true,
          covers: false,
        },
      ),
    ]);
  });
});

describe('TextIndex.explain', () => {
  it("records each part the asked offers hold and their scores, the search's own", () => {
    const query = textQueryOf(TERMS);
    const parts: [number, number, number][] = [];
    const offers: [number, number, number][] = [];
    const recorder: ScoreRecorder = {
      part: (ordinal, term, part) => parts.push([ordinal, term, part]),
      offer: (ordinal, coverage, score) => offers.push([ordinal, coverage, score]),
    };
    const explained = index.explain(query, Int32Array.of(2, 4), recorder);
    const p = (term: string, impact: number) => part(TERMS, term, impact);
    const termNumber = (term: string) => query.terms.findIndex((t) => t.term === term);
    expect(parts.sort((a, b) => a[0] - b[0] || a[1] - b[1])).toEqual([
      [2, termNumber('skis'), p('skis', 0.7)],
      [2, termNumber('zermatt'), p('zermatt', 1.6)],
      [4, termNumber('ski zermatt'), p('ski zermatt', 0.6)],
    ]);
    const matches = index.match(query);
    expect(offers).toEqual([
      [2, 0.5, matches.scoreOf(2)],
      [4, 0, 0],
    ]);
    expect(Array.from(explained.covered)).toEqual([2 * MAJOR_CONCEPT, 0]);
    // recording changes nothing of the next search
    expect(index.match(query).scores).toEqual(matches.scores);
  });
});

describe('queryConceptsOf', () => {
  it("lists the search's words of some concept weight in query order, a word before its tail, no pair", () => {
    const token = 'gletscherwanderung';
    // each with the document frequency of its rarest form and its idf
    const shared = (...forms: string[]) => {
      const documents = Math.min(...forms.map((form) => POSTINGS[form].length));
      return { documents, idf: idfOf(documents, 1_000) };
    };
    expect(queryConceptsOf({ terms: TERMS, words: WORDS })).toEqual([
      { word: word(1), token: 'ski', weight: MAJOR_CONCEPT, ...shared('ski', 'skis') },
      { word: word(2), token: 'zermatt', weight: MAJOR_CONCEPT, ...shared('zermatt') },
      { word: word(3), token, weight: MAJOR_CONCEPT, ...shared('gletscher') },
      { word: tail(3), token, weight: MAJOR_CONCEPT, ...shared('wander') },
    ]);
  });
});
