import { seededRandom } from '@rt/contracts';
import {
  OfferFilterColumnsBuilder,
  offerFilterOf,
  parseDayRanges,
  passingOffersOf,
  dayNumber,
} from './offer-filters';
import type { ListingFilters } from '../../request/listing-filters';
import type { OfferFilterRow } from './offer-filters';
import {
  FIELD_BITS,
  MAJOR_CONCEPT,
  PLACE_CONCEPT,
  PLACE_MENTION_CONCEPT,
  roundHalfEven,
  SCALE,
} from '../../query/analysis/similarity';
import type { QueryWord } from '../../query/analysis/query-words';
import { LANGUAGE_CODES, TextIndex, TextMatches } from './text-index';
import { postingsOf } from './text-index.loader';
import type { TermPostings, TextQuery } from './text-index';

const word = (position: number): QueryWord => ({ kind: 'word', position });

/** The rank of an offer among the matches scoring at least `floor`, or undefined when it is not one. */
const rankOf = (matches: TextMatches, ordinal: number, floor: number) =>
  matches.ranksOf([ordinal], floor).get(ordinal);

const row = (overrides: Partial<OfferFilterRow> = {}): OfferFilterRow => ({
  destination: 'CH',
  categories: [],
  departureDays: '{}',
  isValid: true,
  discountClub: false,
  seaside: false,
  ...overrides,
});

const list = (entries: [number, number][]): TermPostings => ({
  ordinals: Int32Array.from(entries.map(([ordinal]) => ordinal)),
  impacts: Float32Array.from(entries.map(([, impact]) => impact)),
});

function indexOf(rows: OfferFilterRow[], postings: Record<string, [number, number][]>): TextIndex {
  const builder = new OfferFilterColumnsBuilder();
  for (const offer of rows) builder.add(offer);
  return new TextIndex(
    '7',
    rows.map((_, i) => `OFFER-${i}`),
    new Map(Object.entries(postings).map(([term, entries]) => [term, list(entries)])),
    builder.build(),
    rows.length,
  );
}

/** A form's part written out (analysis/similarity.ts): factor × float4 impact, scaled, halves to even. */
const part = (factor: number, impact: number) => roundHalfEven(factor * Math.fround(impact) * SCALE);

describe('roundHalfEven (PostgreSQL round(float8))', () => {
  it('rounds halves to even and everything else to the nearest integer', () => {
    expect([0.5, 1.5, 2.5, 3.5, 2.4999, 2.5001, 7].map(roundHalfEven)).toEqual([0, 2, 2, 4, 2, 3, 7]);
  });
});

describe('TextIndex.match', () => {
  const offers = [row(), row({ destination: 'FR' }), row(), row({ isValid: false })];
  const index = indexOf(offers, {
    ski: [
      [0, 1.1],
      [1, 0.9],
      [3, 1.3],
    ],
    skis: [[2, 0.7]],
    zermatt: [
      [0, 1.5],
      [2, 1.6],
    ],
    the: [
      [0, 0.4],
      [1, 0.4],
      [2, 0.4],
      [3, 0.4],
    ],
  });
  const query: TextQuery = {
    coverable: 3_000_000 + 4_000_000,
    terms: [
      { word: word(1), term: 'ski', factor: 3, conceptWeight: 3_000_000, selects: true },
      { word: word(1), term: 'skis', factor: 1.8, conceptWeight: 1_800_000, selects: true },
      { word: word(2), term: 'zermatt', factor: 4, conceptWeight: 4_000_000, selects: true },
      { word: word(3), term: 'the', factor: 0.01, conceptWeight: 10_000, selects: false },
    ],
  };

  it('scores each word by its best form, times the share of the query covered', () => {
    const matches = index.match(query);
    expect(Array.from(matches.ordinals)).toEqual([0, 1, 2, 3]);
    const both = (part(3, 1.1) + part(4, 1.5) + part(0.01, 0.4)) / SCALE;
    expect(matches.scoreOf(0)).toBe(both * Math.min(1, (3_000_000 + 4_000_000 + 10_000) / query.coverable));
    const skiOnly = (part(3, 0.9) + part(0.01, 0.4)) / SCALE;
    expect(matches.scoreOf(1)).toBe(skiOnly * ((3_000_000 + 10_000) / query.coverable));
    // offer 2 holds only the weaker form of word 1 (its concept weight counts, 1.8M) and zermatt
    const weak = (part(1.8, 0.7) + part(4, 1.6) + part(0.01, 0.4)) / SCALE;
    expect(matches.scoreOf(2)).toBe(weak * Math.min(1, (1_800_000 + 4_000_000 + 10_000) / query.coverable));
  });

  it('selects only offers holding a selecting term: a frequent word adds to scores, never matches', () => {
    const matches = index.match({ coverable: 10_000, terms: [query.terms[3]] });
    expect(matches.ordinals.length).toBe(0);
    expect(index.match({ ...query, terms: query.terms.slice(2) }).ordinals).toEqual(Int32Array.from([0, 2]));
  });

  it('applies the filters to the candidates', () => {
    const filter = offerFilterOf({ destination: 'CH', hideInvalid: true }, index.filters);
    expect(Array.from(index.match(query, filter).ordinals)).toEqual([0, 2]);
    const none = offerFilterOf({ destination: 'IT' }, index.filters);
    expect(index.match(query, none).ordinals.length).toBe(0);
  });

  it('ranks by score then ordinal, keeps those at or above the floor, and counts them', () => {
    const matches = index.match(query);
    const best = matches.best(10, 0);
    const scores = best.map((match) => match.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(best.map((match) => match.rank)).toEqual([1, 2, 3, 4]);
    for (const match of best) expect(rankOf(matches, match.ordinal, 0)).toBe(match.rank);
    expect(matches.best(2, 0)).toEqual(best.slice(0, 2));
    const floor = best[1].score;
    expect(matches.countAtLeast(floor)).toBe(2);
    expect(matches.best(10, floor).map((match) => match.ordinal)).toEqual(
      best.slice(0, 2).map((m) => m.ordinal),
    );
    expect(rankOf(matches, best[3].ordinal, floor)).toBeUndefined();
    expect(rankOf(matches, 99, 0)).toBeUndefined();
  });

  it('breaks ties on the ordinal (the id order) in the page and in the ranks', () => {
    const tied = indexOf([row(), row(), row(), row()], {
      lake: [
        [0, 1],
        [1, 1],
        [2, 1],
        [3, 1],
      ],
    });
    const matches = tied.match({
      coverable: 2_000_000,
      terms: [{ word: word(1), term: 'lake', factor: 2, conceptWeight: 2_000_000, selects: true }],
    });
    expect(matches.best(3, 0).map((match) => match.ordinal)).toEqual([0, 1, 2]);
    expect([3, 2, 1, 0].map((ordinal) => rankOf(matches, ordinal, 0))).toEqual([4, 3, 2, 1]);
  });

  it('ranks many offers at once as one at a time would, concept weights, ties and floors included (ranksOf)', () => {
    // deterministic pseudo-random concept weights covered and scores with many ties (few distinct values), and a few NaN
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const count = 2_000;
    const ordinals = Int32Array.from({ length: count }, (_, i) => 3 * i + 1);
    const scores = Float64Array.from({ length: count }, () =>
      next() < 0.02 ? NaN : Math.floor(next() * 40) / 4,
    );
    const covered = Float64Array.from({ length: count }, () => Math.floor(next() * 3));
    const matches = new TextMatches(ordinals, scores, covered);
    // the rank by its definition: kept matches of a higher concept weight covered, then of the same
    // and a higher score, then of the same both and a lower ordinal
    const rankByDefinition = (at: number, floor: number) => {
      let rank = 1;
      for (let i = 0; i < count; i++) {
        if (!(scores[i] >= floor)) continue;
        const above =
          covered[i] > covered[at] ||
          (covered[i] === covered[at] && (scores[i] > scores[at] || (scores[i] === scores[at] && i < at)));
        if (above) rank++;
      }
      return rank;
    };
    for (const floor of [0, 2.5, 7.5]) {
      const asked = Array.from({ length: 150 }, () => ordinals[Math.floor(next() * count)]);
      asked.push(0, 2, 3 * count + 1); // not matches
      const ranks = matches.ranksOf(asked, floor);
      let kept = 0;
      for (const ordinal of asked) {
        const at = ordinals.indexOf(ordinal);
        const expected = at >= 0 && scores[at] >= floor ? rankByDefinition(at, floor) : undefined;
        if (expected !== undefined) kept++;
        expect({ ordinal, floor, rank: ranks.get(ordinal) }).toEqual({ ordinal, floor, rank: expected });
        expect(rankOf(matches, ordinal, floor)).toBe(expected);
      }
      expect(kept).toBeGreaterThan(20);
    }
  });

  it('ranks an offer covering more concept weight first, whatever the scores', () => {
    const matches = index.match({
      coverable: 8,
      terms: [
        { word: word(1), term: 'ski', factor: 30, conceptWeight: 4, selects: true },
        { word: word(2), term: 'zermatt', factor: 1, conceptWeight: 4, selects: true },
      ],
    });
    // offer 0 holds both words; 1 and 3 hold "ski", 2 only "zermatt"
    expect(Array.from(matches.covered)).toEqual([8, 4, 4, 4]);
    const best = matches.best(4, 0);
    expect(best[0].ordinal).toBe(0);
    // offer 2 holds only "zermatt" (score 1 × 1.6 × ½), below offers 1 and 3 of "ski" (30 × …)
    // by score, but it covers as much as they do: the score decides among them
    expect(best.map((match) => match.ordinal)).toEqual([0, 3, 1, 2]);
    expect(matches.scoreOf(0)).toBeCloseTo(30 * 1.1 + 1 * 1.5, 5);
  });

  it('covers a place only where the offer holds it in its name or destination, a mention scoring as a minor concept', () => {
    // offer 0 is in Zurich (name: A), offer 1 departs from Zurich (description: D), both hiking;
    // offer 2 is a beach in Corsica departing from Zurich (D), offer 3 in Zurich (B) without hiking
    const fields = Uint8Array.from([FIELD_BITS.A, FIELD_BITS.D, FIELD_BITS.D, FIELD_BITS.B | FIELD_BITS.D]);
    const place = indexOf([row(), row(), row(), row()], {
      randonnee: [
        [0, 1],
        [1, 1],
      ],
    });
    place.postings.set('zurich', { ...list([0, 1, 2, 3].map((o) => [o, 1])), fields });
    const terms: TextQuery['terms'] = [
      {
        word: word(1),
        term: 'zurich',
        factor: 2,
        conceptWeight: PLACE_CONCEPT,
        selects: true,
        placeOnly: true,
      },
      { word: word(2), term: 'randonnee', factor: 1, conceptWeight: MAJOR_CONCEPT, selects: true },
    ];
    const matches = place.match({ coverable: PLACE_CONCEPT + MAJOR_CONCEPT, terms });
    expect(Array.from(matches.covered)).toEqual([
      PLACE_CONCEPT + MAJOR_CONCEPT,
      MAJOR_CONCEPT + PLACE_MENTION_CONCEPT,
      PLACE_MENTION_CONCEPT,
      PLACE_CONCEPT,
    ]);
    expect(matches.best(4, 0).map((match) => match.ordinal)).toEqual([0, 3, 1, 2]);
    // the mention still scores as a word: offer 1 scores its part of "zurich" (× its coverage)
    expect(matches.scoreOf(1)).toBeCloseTo(
      ((2 + 1) * (MAJOR_CONCEPT + PLACE_MENTION_CONCEPT)) / (PLACE_CONCEPT + MAJOR_CONCEPT),
      5,
    );
    // an offer that only mentions the place still scores above 0 (a search of the place alone)
    expect(matches.scoreOf(2)).toBeGreaterThan(0);
    // without the fields (postings of an older reindex) every field covers it
    place.postings.set('zurich', list([0, 1, 2, 3].map((o) => [o, 1])));
    expect(Array.from(place.match({ coverable: 20, terms }).covered)).toEqual([20, 20, 16, 16]);
  });

  it("ranks offers in the search's language first among those of equal coverage, never above more coverage", () => {
    const languages = Uint8Array.from([
      LANGUAGE_CODES.en,
      LANGUAGE_CODES.fr,
      LANGUAGE_CODES.de,
      LANGUAGE_CODES.fr,
    ]);
    const builder = new OfferFilterColumnsBuilder();
    for (let i = 0; i < 4; i++) builder.add(row());
    const postings = new Map([
      [
        'randonnee',
        list([
          [1, 1],
          [3, 0.5],
        ]),
      ],
      [
        'hiking',
        list([
          [0, 1.2],
          [2, 1.2],
        ]),
      ],
      ['zermatt', list([[2, 1]])],
    ]);
    const multilingual = new TextIndex(
      '7',
      ['A', 'B', 'C', 'D'],
      postings,
      builder.build(),
      4,
      undefined,
      languages,
    );
    const terms: TextQuery['terms'] = [
      { word: word(1), term: 'randonnee', factor: 1, conceptWeight: 4, selects: true },
      { word: word(1), term: 'hiking', factor: 0.9, conceptWeight: 4, selects: true },
      { word: word(2), term: 'zermatt', factor: 1, conceptWeight: 4, selects: true },
    ];
    const order = (language?: TextQuery['language']) =>
      multilingual
        .match({ coverable: 8, terms, ...(language ? { language } : {}) })
        .best(4, 0)
        .map((match) => match.ordinal);
    // without a preference: coverage, then score (the English offer's hiking 0.9 × 1.2 above 1 × 0.5)
    expect(order()).toEqual([2, 0, 1, 3]);
    // French preferred: both French offers above the English one, the German one still first
    expect(order({ code: LANGUAGE_CODES.fr, factor: 3 })).toEqual([2, 1, 3, 0]);
    expect(
      multilingual.match({ coverable: 8, terms, language: { code: 1, factor: 3 } }).scoreOf(1),
    ).toBeCloseTo((3 * 1 * 4) / 8, 5);
  });

  it('gives NaN (kept by no floor) when nothing of the query is coverable', () => {
    const matches = index.match({
      coverable: 0,
      terms: [{ word: word(1), term: 'ski', factor: 3, conceptWeight: 0, selects: true }],
    });
    expect(Number.isNaN(matches.scoreOf(0))).toBe(true);
    expect(matches.countAtLeast(0)).toBe(0);
    expect(matches.best(5, 0)).toEqual([]);
  });

  it('scores a search after many others alike (the work arrays are reused)', () => {
    const first = index.match(query).scores;
    for (let i = 0; i < 50; i++) index.match({ ...query, terms: query.terms.slice(i % 3) });
    expect(index.match(query).scores).toEqual(first);
  });
});

describe('TextIndex.bytes (the search_text_index_bytes metric)', () => {
  /** The byte lengths of every typed array reachable from `root`, each counted once. */
  function typedArrayBytes(root: unknown): number {
    const seen = new Set<unknown>();
    let bytes = 0;
    const visit = (value: unknown) => {
      if (value === null || typeof value !== 'object' || seen.has(value)) return;
      seen.add(value);
      if (ArrayBuffer.isView(value)) {
        bytes += value.byteLength;
        return;
      }
      const children = value instanceof Map ? [...value.keys(), ...value.values()] : Object.values(value);
      for (const child of children) visit(child);
    };
    visit(root);
    return bytes;
  }

  it('is the real byte length of every typed array the index holds: postings, filters, work arrays, dictionary', () => {
    const index = indexOf([row({ categories: ['ski', 'lake'] }), row(), row({ destination: 'FR' })], {
      ski: [
        [0, 1.1],
        [2, 0.9],
      ],
      skiing: [[1, 0.5]],
      'ski zermatt': [[0, 0.7]],
    });
    expect(index.bytes).toBe(typedArrayBytes(index));
    expect(typedArrayBytes(index.analyser.dictionary)).toBeGreaterThan(0);
    // the per-search work arrays: 4 of 8 bytes and 3 of 4 bytes per offer; the language column: 1;
    // the offers' places (D-88), even none placed: the starts of their points and places, 2 of 4
    const without = indexOf([], {});
    const offers = indexOf([row(), row(), row(), row(), row()], {});
    const perOffer =
      (offers.bytes - without.bytes - (typedArrayBytes(offers.filters) - typedArrayBytes(without.filters))) /
      5;
    expect(perOffer).toBe(53);
  });
});

describe('offer filters', () => {
  it('reads PostgreSQL datemultiranges, half-open and inclusive bounds alike', () => {
    expect(parseDayRanges('{}')).toEqual([]);
    expect(parseDayRanges('{[2026-07-01,2026-07-03),[2026-08-10,2026-08-11)}')).toEqual([
      [dayNumber('2026-07-01'), dayNumber('2026-07-03')],
      [dayNumber('2026-08-10'), dayNumber('2026-08-11')],
    ]);
    expect(parseDayRanges('{[2026-07-01,2026-07-02]}')).toEqual([
      [dayNumber('2026-07-01'), dayNumber('2026-07-03')],
    ]);
  });

  it('keeps offers departing on a day of a range (inclusive), in a category, and by flag', () => {
    const builder = new OfferFilterColumnsBuilder();
    builder.add(
      row({ departureDays: '{[2026-07-01,2026-07-02)}', categories: ['hiking', 'lake'], seaside: true }),
    );
    builder.add(row({ departureDays: '{[2026-07-05,2026-07-06)}', categories: ['ski'], discountClub: true }));
    builder.add(row({ destination: null }));
    const columns = builder.build();
    const kept = (filters: Parameters<typeof offerFilterOf>[0]) => {
      const filter = offerFilterOf(filters, columns);
      return [0, 1, 2].filter((o) => (filter ? filter(o) : true));
    };
    expect(kept({})).toEqual([0, 1, 2]);
    expect(kept({ dateRanges: [{ from: '2026-06-01', to: '2026-07-01' }] })).toEqual([0]);
    expect(kept({ dateRanges: [{ from: '2026-07-02', to: '2026-07-04' }] })).toEqual([]);
    expect(
      kept({
        dateRanges: [
          { from: '2026-07-02', to: '2026-07-04' },
          { from: '2026-07-05', to: '2026-07-05' },
        ],
      }),
    ).toEqual([1]);
    expect(kept({ categories: ['lake', 'unknown'] })).toEqual([0]);
    expect(kept({ seaside: true })).toEqual([0]);
    expect(kept({ seaside: false, discountClub: false })).toEqual([2]);
    expect(kept({ destination: 'CH' })).toEqual([0, 1]);
  });

  it('lists the same offers by passingOffersOf (column by column) as by the filter, for any filters', () => {
    const random = seededRandom(50);
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
    const date = (day: number) =>
      new Date(Date.UTC(2026, 6, 1) + day * 86_400_000).toISOString().slice(0, 10);
    const builder = new OfferFilterColumnsBuilder();
    const offers = 400;
    for (let o = 0; o < offers; o++) {
      // departure ranges written out of order: the columns keep them ascending
      const starts = Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * 60));
      const ranges = [...new Set(starts)].map((start) => `[${date(start)},${date(start + 1)})`).reverse();
      builder.add({
        destination: pick(['CH', 'IT', 'NO', null]),
        categories: ['ski', 'lake', 'hiking', 'cruise'].filter(() => random() < 0.3),
        departureDays: `{${ranges.join(',')}}`,
        isValid: random() < 0.8,
        discountClub: random() < 0.5,
        seaside: random() < 0.5,
      });
    }
    const columns = builder.build();
    const optional = <T>(value: T) => (random() < 0.5 ? value : undefined);
    let passingSomewhere = 0;
    for (let round = 0; round < 300; round++) {
      const from = Math.floor(random() * 60);
      const filters: ListingFilters = {
        destination: optional(pick(['CH', 'IT', 'NO', 'FR'])),
        categories: optional(['ski', 'lake', 'hiking', 'cruise', 'unknown'].filter(() => random() < 0.4)),
        dateRanges: optional([{ from: date(from), to: date(from + Math.floor(random() * 10)) }]),
        hideInvalid: optional(true),
        discountClub: optional(random() < 0.5),
        seaside: optional(random() < 0.5),
      };
      const filter = offerFilterOf(filters, columns);
      const passing = passingOffersOf(filters, columns);
      expect(passing === undefined).toBe(filter === undefined);
      if (!filter || !passing) continue;
      const expected = Array.from({ length: offers }, (_, o) => (filter(o) ? 1 : 0));
      expect(Array.from(passing)).toEqual(expected);
      if (expected.includes(1)) passingSomewhere++;
    }
    // the draws are not all empty filters or filters nothing passes
    expect(passingSomewhere).toBeGreaterThan(50);
  });

  it('keeps an offer whose departure ranges arrive out of order', () => {
    const builder = new OfferFilterColumnsBuilder();
    builder.add(row({ departureDays: '{[2026-08-10,2026-08-11),[2026-07-01,2026-07-02)}' }));
    const columns = builder.build();
    const filters = { dateRanges: [{ from: '2026-07-01', to: '2026-07-01' }] };
    expect(offerFilterOf(filters, columns)!(0)).toBe(true);
    expect(Array.from(passingOffersOf(filters, columns)!)).toEqual([1]);
  });
});

describe('postingsOf (the loader)', () => {
  const block = (values: number[], write: (buffer: Buffer, value: number, offset: number) => void) => {
    const buffer = Buffer.alloc(4 * values.length);
    values.forEach((value, i) => write(buffer, value, 4 * i));
    return buffer;
  };
  const ordinals = (values: number[]) => block(values, (b, v, o) => b.writeInt32BE(v, o));
  const impacts = (values: number[]) => block(values, (b, v, o) => b.writeFloatBE(v, o));

  it('reads a block of big-endian ordinals and impacts (int4send, float4send) into typed arrays', () => {
    const list = postingsOf(ordinals([0, 2, 70_000]), impacts([0.5, 1.25, 2.1]), 70_001);
    expect(Array.from(list.ordinals)).toEqual([0, 2, 70_000]);
    expect(Array.from(list.impacts)).toEqual([0.5, 1.25, Math.fround(2.1)]);
  });

  it('reads the fields of each posting, a byte each, and leaves them unknown for a block without', () => {
    const fields = Buffer.from([FIELD_BITS.A | FIELD_BITS.D, FIELD_BITS.D]);
    const list = postingsOf(ordinals([0, 2]), impacts([0.5, 1.25]), 3, fields);
    expect(Array.from(list.fields!)).toEqual([FIELD_BITS.A | FIELD_BITS.D, FIELD_BITS.D]);
    expect(postingsOf(ordinals([0, 2]), impacts([0.5, 1.25]), 3, null).fields).toBeUndefined();
    expect(() => postingsOf(ordinals([0, 2]), impacts([0.5, 1.25]), 3, Buffer.from([1]))).toThrow(
      'a posting block holds 2 postings and 1 fields',
    );
  });

  it('refuses a block that does not hold ascending ordinals of the loaded offers', () => {
    expect(() => postingsOf(ordinals([2, 1]), impacts([1, 1]), 3)).toThrow('not ascending');
    expect(() => postingsOf(ordinals([1, 1]), impacts([1, 1]), 3)).toThrow('not ascending');
    expect(() => postingsOf(ordinals([0, 3]), impacts([1, 1]), 3)).toThrow('below 3');
    expect(() => postingsOf(ordinals([0, 1]), impacts([1]), 3)).toThrow('8 bytes of ordinals and 4');
  });
});
