import { seededRandom } from './seeded-random';

describe('seededRandom', () => {
  const draw = (seed: number, count: number) => {
    const random = seededRandom(seed);
    return Array.from({ length: count }, () => random());
  };

  it('replays the same sequence for a seed, another for another seed', () => {
    expect(draw(42, 1000)).toEqual(draw(42, 1000));
    expect(draw(43, 1000)).not.toEqual(draw(42, 1000));
  });

  it('draws in [0, 1), spread evenly', () => {
    const values = draw(7, 10_000);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(values.filter((value) => value < 0.1).length).toBeGreaterThan(900);
  });
});
