import { fuseRanks, rrfScore } from './rrf-score';
import type { FusedRecord, SideRank } from './rrf-score';

describe('rrfScore (docs/decisions.md D-51)', () => {
  it('w/(k + rank_semantic) + (1 − w)/(k + rank_text); an absent side adds nothing', () => {
    expect(rrfScore(0.4, 60, 1, 3)).toBe(0.4 / 61 + 0.6 / 63);
    expect(rrfScore(0.4, 60, undefined, 1)).toBe(0.6 / 61);
    expect(rrfScore(0.4, 60, 2, undefined)).toBe(0.4 / 62);
    expect(rrfScore(0, 60, 1, undefined)).toBe(0);
    expect(rrfScore(1, 10, 1, 1)).toBe(1 / 11);
  });
});

describe('fuseRanks (the RRF fusion of a hybrid search)', () => {
  const ranked = (...ordinals: number[]): SideRank[] =>
    ordinals.map((ordinal, i) => ({ ordinal, rank: i + 1 }));
  const ranksOf = (fused: FusedRecord[]) => fused.map((r) => [r.ordinal, r.semanticRank, r.textRank]);

  it('ranks the union of both sides by RRF score, ties on ordinal, each record with both ranks', () => {
    // 3 is 1st semantically and 3rd on the text side, 1 the reverse: the same score, 1 first
    const { ranked: fused, semanticOnly } = fuseRanks(0.5, 60, ranked(1, 2, 3), ranked(3, 5, 1), undefined);
    expect(ranksOf(fused)).toEqual([
      [1, 3, 1],
      [3, 1, 3],
      [2, null, 2],
      [5, 2, null],
    ]);
    expect(fused.map((r) => r.score)).toEqual(
      fused.map((r) => rrfScore(0.5, 60, r.semanticRank ?? undefined, r.textRank ?? undefined)),
    );
    expect(semanticOnly).toBe(1);
  });

  it('asks the text ranks of the semantic records past the text side’s best, in one call', () => {
    const asked: number[][] = [];
    const textRanksOf = (ordinals: number[]) => {
      asked.push(ordinals);
      return new Map([[7, 9]]);
    };
    const { ranked: fused, semanticOnly } = fuseRanks(0.5, 60, ranked(1), ranked(7, 1, 8), textRanksOf);
    expect(asked).toEqual([[7, 8]]);
    expect(fused.find((r) => r.ordinal === 7)).toMatchObject({ semanticRank: 1, textRank: 9 });
    // 8 has no text rank at least the floor: the semantic side alone ranks it
    expect(fused.find((r) => r.ordinal === 8)).toMatchObject({ semanticRank: 3, textRank: null });
    expect(semanticOnly).toBe(1);
  });

  it('gives a side of weight 0 no say in the order', () => {
    const textOnly = fuseRanks(0, 60, ranked(4, 2), ranked(2, 4), undefined);
    expect(textOnly.ranked.map((r) => r.ordinal)).toEqual([4, 2]);
    const semanticOnly = fuseRanks(1, 60, [], ranked(2, 4), undefined);
    expect(semanticOnly.ranked.map((r) => r.ordinal)).toEqual([2, 4]);
    expect(semanticOnly.semanticOnly).toBe(2);
  });
});
