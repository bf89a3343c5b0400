import type { ExplainTermRow } from '../../indexes/text-index/text-explain';
import { termKindOf, toExplanation, toTermExplanation, toTravelRecord } from './travels.mapper';

const term = (over: Partial<ExplainTermRow>): ExplainTermRow => ({
  id: 'T1',
  word: { kind: 'word', position: 1 },
  token: 'wanderung',
  term: 'wanderung',
  kind: 'exact',
  weight: 1,
  part: 6_000_000,
  best: true,
  matches: true,
  coverage: 0.5,
  score: 3,
  contribution: 3,
  covers: true,
  place: null,
  languageFactor: 1,
  ...over,
});

describe('termKindOf', () => {
  it('tells the folded word (exact) from its stems', () => {
    expect(termKindOf({ kind: 'exact', term: 'wanderung', token: 'wanderung' })).toBe('exact');
    expect(termKindOf({ kind: 'exact', term: 'wander', token: 'wanderung' })).toBe('stem');
  });

  it('keeps the other kinds as the analysis names them', () => {
    for (const kind of ['typo', 'compound', 'phrase', 'stop', 'glossary', 'synonym'] as const) {
      expect(termKindOf({ kind, term: 'x', token: 'y' })).toBe(kind);
    }
  });
});

describe('toTermExplanation', () => {
  it('counts the best form of a word of a selected record only', () => {
    expect(toTermExplanation(term({}))).toEqual({
      word: 'wanderung',
      term: 'wanderung',
      kind: 'exact',
      weight: 1,
      counted: true,
      contribution: 3,
    });
    expect(toTermExplanation(term({ best: false }))).toMatchObject({ counted: false, contribution: 0 });
    expect(toTermExplanation(term({ matches: false }))).toMatchObject({ counted: false, contribution: 0 });
  });
});

describe('toExplanation', () => {
  const scores = { _relevance_score: 0.5 / 61 + 0.5 / 63, semantic_score: 0.7, tsvector_score: 4 };

  it('splits the fused score into the two sides and the text score into its terms', () => {
    const explanation = toExplanation(scores, {
      vectorWeight: 0.5,
      k: 60,
      semanticRank: 1,
      textRank: 3,
      terms: [
        term({ contribution: 3 }),
        term({ term: 'hiking', kind: 'glossary', weight: 0.3, best: false, contribution: 0.2 }),
        term({ word: { kind: 'word', position: 2 }, token: 'see', term: 'see', contribution: 1 }),
      ],
      concepts: [
        { word: { kind: 'word', position: 1 }, token: 'wanderung', weight: 4, documents: 12, idf: 3 },
        { word: { kind: 'word', position: 2 }, token: 'see', weight: 4, documents: 40, idf: 2 },
        { word: { kind: 'word', position: 3 }, token: 'zermatt', weight: 16, documents: 5, idf: 4 },
      ],
      language: 'de',
      unmatchedWords: ['qqxv'],
    });
    expect(explanation).toEqual({
      score: scores._relevance_score,
      rrf: { vector_weight: 0.5, k: 60 },
      semantic: { similarity: 0.7, rank: 1, contribution: 0.5 / 61 },
      text: {
        score: 4,
        rank: 3,
        contribution: 0.5 / 63,
        coverage: 0.5,
        concepts: [
          { word: 'wanderung', weight: 4, covered: true, idf: 3, place: null },
          { word: 'see', weight: 4, covered: true, idf: 2, place: null },
          { word: 'zermatt', weight: 16, covered: false, idf: 4, place: null },
        ],
        language: 'de',
        language_factor: 1,
        unmatched_words: ['qqxv'],
        places: [],
        terms: [
          expect.objectContaining({ term: 'wanderung', counted: true, contribution: 3 }),
          expect.objectContaining({ term: 'hiking', kind: 'glossary', counted: false, contribution: 0 }),
          expect.objectContaining({ word: 'see', counted: true, contribution: 1 }),
        ],
      },
    });
    expect(explanation.semantic.contribution + explanation.text.contribution).toBe(scores._relevance_score);
  });

  it('gives 0 to a side the record is not ranked on, and no coverage to a record the query does not select', () => {
    const explanation = toExplanation(
      { _relevance_score: 0.5 / 61, semantic_score: 0.7, tsvector_score: 0 },
      {
        vectorWeight: 0.5,
        k: 60,
        semanticRank: 1,
        textRank: null,
        terms: [term({ kind: 'stop', matches: false })],
        concepts: [
          { word: { kind: 'word', position: 1 }, token: 'wanderung', weight: 4, documents: 12, idf: 3 },
        ],
        language: null,
        unmatchedWords: [],
      },
    );
    expect(explanation.text).toMatchObject({
      rank: null,
      contribution: 0,
      coverage: 0,
      concepts: [{ word: 'wanderung', weight: 4, covered: false }],
      language: null,
    });
    expect(explanation.text.terms).toEqual([expect.objectContaining({ counted: false, contribution: 0 })]);
  });
});

describe('toTravelRecord', () => {
  const row = { id: 'T1', name: 'Walk', slug: 'walk' };
  const scores = { _relevance_score: 1, semantic_score: 0, tsvector_score: 0 };

  it('adds _explanation only when there is one', () => {
    expect(toTravelRecord(row, 'min', scores)).not.toHaveProperty('_explanation');
    const explanation = toExplanation(scores, {
      vectorWeight: 0,
      k: 60,
      semanticRank: null,
      textRank: null,
      terms: [],
      concepts: [],
      language: null,
      unmatchedWords: [],
    });
    expect(toTravelRecord(row, 'min', scores, explanation)).toEqual({
      ...row,
      ...scores,
      _explanation: explanation,
    });
  });
});

describe('toExplanation: places (D-88b)', () => {
  const scores = { _relevance_score: 0.01, semantic_score: 0, tsvector_score: 2 };
  const tasch = {
    token: 'tasch',
    position: 2,
    id: 'tasch',
    kind: 'city',
    name: 'tasch',
    point: { lat: 46.068, lon: 7.778 },
    radiusKm: 15,
    regions: ['mattertal', 'valais'],
    members: [],
  };

  it('shows each place resolved, its parent, and how far the record is from it', () => {
    const located = term({
      word: { kind: 'word', position: 2 },
      token: 'tasch',
      term: 'tasch',
      kind: 'location',
      location: { place: 'tasch', how: 'near', distanceKm: 3.5, share: 0.965 },
    });
    const explanation = toExplanation(scores, {
      vectorWeight: 0.01,
      k: 60,
      semanticRank: null,
      textRank: 1,
      terms: [located],
      concepts: [],
      language: null,
      unmatchedWords: [],
      places: [{ place: tasch, holdsOffers: false }],
    });
    expect(explanation.text.places).toEqual([
      {
        word: 'tasch',
        place: 'tasch',
        kind: 'city',
        parent: 'mattertal',
        in_catalogue: false,
        covered_by: 'near',
        distance_km: 3.5,
        share: 0.965,
      },
    ]);
    expect(explanation.text.terms[0]).toMatchObject({ kind: 'location', term: 'tasch' });
  });

  it('gives a record not covering the place by where it is no distance', () => {
    const explanation = toExplanation(scores, {
      vectorWeight: 0.01,
      k: 60,
      semanticRank: 1,
      textRank: null,
      terms: [],
      concepts: [],
      language: null,
      unmatchedWords: [],
      places: [{ place: tasch, holdsOffers: true }],
    });
    expect(explanation.text.places[0]).toMatchObject({
      in_catalogue: true,
      covered_by: null,
      distance_km: null,
      share: 0,
    });
  });
});
