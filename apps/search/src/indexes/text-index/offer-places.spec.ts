import { distanceKm } from './offer-places';

describe('distanceKm', () => {
  it('is the great-circle distance: Geneva to Zurich about 224 km, a point to itself 0', () => {
    const geneva = { lat: 46.20222, lon: 6.14569 };
    const zurich = { lat: 47.36667, lon: 8.55 };
    expect(distanceKm(geneva, zurich)).toBeGreaterThan(220);
    expect(distanceKm(geneva, zurich)).toBeLessThan(228);
    expect(distanceKm(geneva, geneva)).toBe(0);
  });

  it('a quarter of the meridian is about 10,008 km', () => {
    expect(distanceKm({ lat: 0, lon: 0 }, { lat: 90, lon: 0 })).toBeCloseTo(10007.6, 0);
  });
});
