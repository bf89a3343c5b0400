import { rrfScore } from './rrf-score';

describe('rrfScore (docs/decisions.md D-51)', () => {
  it('w/(k + rank_semantic) + (1 − w)/(k + rank_text); an absent side adds nothing', () => {
    expect(rrfScore(0.4, 60, 1, 3)).toBe(0.4 / 61 + 0.6 / 63);
    expect(rrfScore(0.4, 60, undefined, 1)).toBe(0.6 / 61);
    expect(rrfScore(0.4, 60, 2, undefined)).toBe(0.4 / 62);
    expect(rrfScore(0, 60, 1, undefined)).toBe(0);
    expect(rrfScore(1, 10, 1, 1)).toBe(1 / 11);
  });
});
