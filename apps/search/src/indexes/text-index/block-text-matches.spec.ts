import { seededRandom } from '@rt/contracts';
import { FIELD_BITS, MAJOR_CONCEPT, MINOR_CONCEPT, PLACE_CONCEPT } from '../../query/analysis/similarity';
import { OfferFilterColumnsBuilder } from './offer-filters';
import { BlockTextMatches, TextIndex } from './text-index';
import type { ScoredTerm, TermPostings, TextQuery, TextSideMatches } from './text-index';

/**
 * Block-max scoring (TextIndex.matchByBlocks, D-90) against scoring every match (TextIndex.match):
 * random catalogues and searches (common and rare terms, words of several forms, places, the
 * language preference, filters, floors, ties), every question a search asks answered the same.
 */
describe('TextIndex.matchByBlocks', () => {
  const OFFERS = 3_000;
  const random = seededRandom(65);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
  const builder = new OfferFilterColumnsBuilder();
  for (let o = 0; o < OFFERS; o++)
    builder.add({
      destination: pick(['CH', 'FR', 'IT']),
      categories: [],
      departureDays: '{}',
      isValid: random() < 0.8,
      discountClub: false,
      seaside: false,
    });
  // impacts drawn from few values (many ties) or continuous ones
  const impactsOf = [
    () => pick([0.5, 0.75, 1, 1.25]),
    () => Math.fround(random() * 2),
    () => Math.fround(0.2 + random() * random() * 3),
  ];
  const postings = new Map<string, TermPostings>();
  const shares = [0.6, 0.3, 0.1, 0.05, 0.02, 0.005, 0.001];
  for (let t = 0; t < 40; t++) {
    const share = shares[t % shares.length];
    const impact = impactsOf[t % impactsOf.length];
    const ordinals: number[] = [];
    // some terms clustered in a range of ordinals (the bounds then differ by block)
    const [low, high] = t % 4 === 0 ? [Math.floor(OFFERS * 0.3), Math.floor(OFFERS * 0.5)] : [0, OFFERS];
    for (let o = low; o < high; o++) if (random() < share) ordinals.push(o);
    postings.set(`t${t}`, {
      ordinals: Int32Array.from(ordinals),
      impacts: Float32Array.from(ordinals, impact),
      fields: Uint8Array.from(ordinals, () =>
        pick([FIELD_BITS.A, FIELD_BITS.B, FIELD_BITS.D, FIELD_BITS.C | FIELD_BITS.D]),
      ),
    });
  }
  const languages = Uint8Array.from({ length: OFFERS }, () => pick([0, 1, 2, 3]));
  const index = new TextIndex(
    '1',
    Array.from({ length: OFFERS }, (_, o) => `O-${String(o).padStart(5, '0')}`),
    postings,
    builder.build(),
    OFFERS,
    undefined,
    languages,
  );

  function randomQuery(): TextQuery {
    const words = 1 + Math.floor(random() * 4);
    const terms: ScoredTerm[] = [];
    let coverable = 0;
    for (let w = 0; w < words; w++) {
      const weight = pick([MAJOR_CONCEPT, MAJOR_CONCEPT, MINOR_CONCEPT, PLACE_CONCEPT, 0]);
      coverable += weight;
      const forms = 1 + Math.floor(random() * 3);
      for (let f = 0; f < forms; f++)
        terms.push({
          word: { kind: 'word', position: w },
          term: `t${Math.floor(random() * 41)}`, // t40 is not in the index
          factor: pick([0, 0.5, 1.7, Math.fround(random() * 4)]),
          conceptWeight: weight,
          selects: random() < 0.85,
          placeOnly: weight === PLACE_CONCEPT,
        });
    }
    return {
      terms,
      coverable,
      language: random() < 0.5 ? { code: pick([1, 2, 3]), factor: pick([1, 1.1, 1.5]) } : undefined,
    };
  }

  const filters: ((o: number) => boolean)[] = [() => true, (o) => o % 3 !== 0, (o) => o % 37 === 5];
  const answers = (matches: TextSideMatches, floor: number, asked: number[]) => {
    const set: number[] = [];
    matches.forEachAtLeast(floor, (o) => set.push(o));
    return {
      best: [1, 8, 100].map((wanted) => matches.best(wanted, floor)),
      total: matches.countAtLeast(floor),
      ranks: [...matches.ranksOf(asked, floor)].sort((a, b) => a[0] - b[0]),
      scores: asked.map((o) => matches.scoreOf(o)),
      set: set.sort((a, b) => a - b),
    };
  };

  it('answers what scoring every match answers, for 120 random searches', () => {
    let compared = 0;
    for (let n = 0; n < 120; n++) {
      const query = randomQuery();
      const filter = pick(filters);
      const full = index.match(query, filter);
      const positive = full.scores.filter((score) => score > 0);
      const floor = pick([0, 0, positive.length ? positive[Math.floor(random() * positive.length)] : 0.5]);
      const asked = Array.from({ length: 30 }, () => Math.floor(random() * OFFERS));
      // some of the best, so that ties with the asked are exercised
      asked.push(...full.best(5, floor).map((match) => match.ordinal));
      // each question on a fresh object too: the answers do not depend on what was scored before
      expect(answers(index.matchByBlocks(query, filter), floor, asked)).toEqual(answers(full, floor, asked));
      const blocks = index.matchByBlocks(query, filter);
      expect(blocks.ranksOf(asked, floor)).toEqual(full.ranksOf(asked, floor));
      expect(index.matchByBlocks(query, filter).countAtLeast(floor)).toBe(full.countAtLeast(floor));
      compared += full.ordinals.length;
    }
    expect(compared).toBeGreaterThan(20_000);
  });

  it('keeps its answers while another search uses the index', () => {
    const query = randomQuery();
    const first = index.matchByBlocks(query, undefined);
    const full = index.match(query);
    for (let n = 0; n < 5; n++) index.matchByBlocks(randomQuery()).best(10, 0);
    expect(answers(first, 0, [1, 2, 3, 2_000])).toEqual(answers(full, 0, [1, 2, 3, 2_000]));
  });

  it('finds the best page of a common word without scoring every block', () => {
    const query: TextQuery = {
      coverable: MAJOR_CONCEPT,
      terms: [
        {
          word: { kind: 'word', position: 0 },
          term: 't2',
          factor: 1.5,
          conceptWeight: MAJOR_CONCEPT,
          selects: true,
        },
      ],
    };
    const matches = index.matchByBlocks(query);
    expect(matches).toBeInstanceOf(BlockTextMatches);
    const blocks = matches as BlockTextMatches;
    expect(blocks.best(8, 0)).toEqual(index.match(query).best(8, 0));
    expect(blocks.count).toBe(postings.get('t2')!.ordinals.length);
    expect(blocks.countAtLeast(0)).toBe(blocks.count);
    expect(blocks.scoredBlocks).toBeLessThan(index.blockCount / 2);
  });
});
