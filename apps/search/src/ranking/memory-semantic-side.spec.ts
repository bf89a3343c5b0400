import { readQueryText } from '../query/analysis/analysed-query';
import { filterColumnsOf } from '../indexes/text-index/offer-filters.spec-helper';
import { TextIndex } from '../indexes/text-index/text-index';
import { InMemoryFullPrecisionVectors } from '../indexes/vector-index/full-precision-vectors';
import { QuantizedVectors } from '../indexes/vector-index/quantized-vectors';
import { VectorIndex } from '../indexes/vector-index/vector-index';
import type { RankingRequest, RankingTuning } from '../request/listing-request';
import { filteredOffersOf, semanticSideInMemory, spellingNeighbours } from './memory-semantic-side';
import type { FilteredOffers } from './memory-semantic-side';

/** The bytes passingOffersOf answers, for `offers` offers and a filter. */
const passingWhere = (offers: number, filter: (o: number) => boolean) =>
  Uint8Array.from({ length: offers }, (_, o) => (filter(o) ? 1 : 0));

/**
 * Six offers in two dimensions, the query (1, 0): offer o's vector is at angle 15° × o, so the
 * cosines fall with the ordinal (1, 0.966, 0.866, 0.707, 0.5, 0.259). Offers 0–2 are in CH, 3–5 in
 * IT. Terms: "lisbon" (offer 5), "lisboa" (offers 4, 5), "zermatt" (offers 0–3), "ski" (every one).
 */
const ids = ['A', 'B', 'C', 'D', 'E', 'F'];
const DIMENSION = 2;
const POSTINGS: Record<string, number[]> = {
  lisbon: [5],
  lisboa: [4, 5],
  zermatt: [0, 1, 2, 3],
  ski: [0, 1, 2, 3, 4, 5],
};

function fixtures(): { text: TextIndex; vectors: VectorIndex } {
  const postings = new Map(
    Object.entries(POSTINGS).map(([term, ordinals]) => [
      term,
      { ordinals: Int32Array.from(ordinals), impacts: Float32Array.from(ordinals, () => 1) },
    ]),
  );
  const text = new TextIndex(
    '3',
    ids,
    postings,
    filterColumnsOf(ids.map((_, o) => (o < 3 ? 'CH' : 'IT'))),
    ids.length,
  );
  const values = new Float32Array(ids.length * DIMENSION);
  ids.forEach((_, o) =>
    values.set([Math.cos((o * Math.PI) / 12), Math.sin((o * Math.PI) / 12)], o * DIMENSION),
  );
  const quantized = new QuantizedVectors(DIMENSION, ids.length);
  for (let o = 0; o < ids.length; o++) quantized.set(o, values, o * DIMENSION);
  return {
    text,
    vectors: new VectorIndex('3', quantized, new InMemoryFullPrecisionVectors(DIMENSION, values)),
  };
}

function requestOf(search: string, tuning: Partial<RankingTuning>): RankingRequest {
  return {
    search,
    filters: {},
    tuning: { semanticCandidates: 2, spellingNeighbourMaxDocuments: 500, ...tuning },
  } as unknown as RankingRequest;
}

describe('the semantic side in memory', () => {
  const { text, vectors } = fixtures();
  const query = Float32Array.of(1, 0);
  const inCH = (o: number) => o < 3;
  /** The semantic side of "lisbn" (spelt like "lisbon" and "lisboa") above `floor`. */
  const lisbnSide = (floor: number, textBest: number[], filtered: FilteredOffers | undefined) =>
    semanticSideInMemory(
      requestOf('lisbn', {}),
      readQueryText('lisbn'),
      floor,
      text,
      vectors,
      query,
      textBest,
      filtered,
    );

  it("ranks the nearest, the text side's best and the spelling neighbours by cosine, then ordinal, from the floor up", () => {
    // nearest two: A, B; text best: D; "lisbn" is spelt like "lisbon" (F) and "lisboa" (E, F)
    const matches = lisbnSide(0, [3], undefined);
    expect(matches.map((match) => [ids[match.ordinal], match.rank])).toEqual([
      ['A', 1],
      ['B', 2],
      ['D', 3],
      ['E', 4],
      ['F', 5],
    ]);
    matches.forEach((match) =>
      expect(match.similarity).toBeCloseTo(Math.cos((match.ordinal * Math.PI) / 12), 6),
    );
    const floored = lisbnSide(0.6, [3], undefined);
    expect(floored.map((match) => ids[match.ordinal])).toEqual(['A', 'B', 'D']);
  });

  it('keeps to the offers passing the filters', () => {
    const matches = lisbnSide(0, [], filteredOffersOf(passingWhere(ids.length, (o) => !inCH(o))));
    expect(matches.map((match) => ids[match.ordinal])).toEqual(['D', 'E', 'F']);
  });

  it('lists the offers passing the filters once, in ordinal order, with a filter that agrees', () => {
    const filter = (o: number) => o % 3 !== 1;
    const filtered = filteredOffersOf(passingWhere(10, filter));
    expect([...filtered.ordinals]).toEqual([0, 2, 3, 5, 6, 8, 9]);
    for (let o = 0; o < 10; o++) expect(filtered.filter(o)).toBe(filter(o));
    expect(filteredOffersOf(passingWhere(4, () => false)).ordinals.length).toBe(0);
  });

  it('takes the spelling neighbours held by at most spellingNeighbourMaxDocuments offers, none at 0', () => {
    expect(
      [...spellingNeighbours(requestOf('lisbn', {}), readQueryText('lisbn'), text, undefined)].sort(),
    ).toEqual([4, 5]);
    expect([
      ...spellingNeighbours(
        requestOf('lisbn', { spellingNeighbourMaxDocuments: 1 }),
        readQueryText('lisbn'),
        text,
        undefined,
      ),
    ]).toEqual([5]);
    expect(
      spellingNeighbours(
        requestOf('lisbn', { spellingNeighbourMaxDocuments: 0 }),
        readQueryText('lisbn'),
        text,
        undefined,
      ).size,
    ).toBe(0);
    expect(
      [...spellingNeighbours(requestOf('zermat', {}), readQueryText('zermat'), text, inCH)].sort(),
    ).toEqual([0, 1, 2]);
  });

  it("leaves a one-word search's own word out (the text side holds its offers), not a longer search's", () => {
    expect(spellingNeighbours(requestOf('zermatt', {}), readQueryText('zermatt'), text, undefined).size).toBe(
      0,
    );
    expect(
      [
        ...spellingNeighbours(requestOf('zermatt ski', {}), readQueryText('zermatt ski'), text, undefined),
      ].sort(),
    ).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
