import { haversineMeters } from './haversine';

const ZURICH = { latitude: 47.3769, longitude: 8.5417 };
const GENEVA = { latitude: 46.2044, longitude: 6.1432 };
const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const BERLIN = { latitude: 52.52, longitude: 13.405 };

describe('haversineMeters', () => {
  it('is zero for one point and symmetric', () => {
    expect(haversineMeters(ZURICH, ZURICH)).toBe(0);
    expect(haversineMeters(ZURICH, GENEVA)).toBeCloseTo(haversineMeters(GENEVA, ZURICH), 6);
  });

  it('gives the known great-circle distances of city pairs', () => {
    // Published figures (mean-radius sphere): Zurich–Geneva ≈ 224 km, Paris–Berlin ≈ 878 km.
    expect(haversineMeters(ZURICH, GENEVA) / 1000).toBeCloseTo(224.3, 0);
    expect(haversineMeters(PARIS, BERLIN) / 1000).toBeCloseTo(877.5, 0);
  });

  it('handles the antimeridian and the poles', () => {
    expect(
      haversineMeters({ latitude: 0, longitude: 179.5 }, { latitude: 0, longitude: -179.5 }),
    ).toBeCloseTo(111_195, -1);
    expect(haversineMeters({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 })).toBeCloseTo(
      Math.PI * 6_371_008.8,
      3,
    );
  });
});
