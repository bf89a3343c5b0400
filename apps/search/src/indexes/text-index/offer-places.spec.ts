import { distanceKm, emptyOfferPlaces, offerPlacesOf } from './offer-places';

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

describe('offerPlacesOf', () => {
  const int32s = (...values: number[]) => {
    const bytes = Buffer.alloc(values.length * 4);
    values.forEach((value, i) => bytes.writeInt32BE(value, i * 4));
    return bytes;
  };
  const floats = (...values: number[]) => {
    const bytes = Buffer.alloc(values.length * 4);
    values.forEach((value, i) => bytes.writeFloatBE(value, i * 4));
    return bytes;
  };

  it('reads the (offer, place) pairs and the points by offer ordinal', () => {
    // offer 0: places ch, valais and a point; offer 1: none; offer 2: it, no point; offer 3: two points
    const places = offerPlacesOf(
      {
        placeIds: ['ch', 'it', 'valais'],
        placeOffers: int32s(0, 0, 2),
        places: int32s(0, 2, 1),
        pointCounts: int32s(0, 1, 3, 2),
        points: floats(46.02, 7.75, 45.5, 9.2, 44, 8),
      },
      4,
    );
    expect([...places.placeStart]).toEqual([0, 2, 2, 3, 3]);
    expect([...places.places]).toEqual([0, 2, 1]);
    expect([...places.pointStart]).toEqual([0, 1, 1, 1, 3]);
    expect(places.lat[0]).toBeCloseTo(46.02, 5);
    expect(places.lon[0]).toBeCloseTo(7.75, 5);
    expect([...places.lat.subarray(1)].map((v) => Math.round(v * 10) / 10)).toEqual([45.5, 44]);
    expect([...places.lon.subarray(1)].map((v) => Math.round(v * 10) / 10)).toEqual([9.2, 8]);
  });

  it('no rows: every offer with nothing, as emptyOfferPlaces', () => {
    const rows = { placeIds: [], placeOffers: null, places: null, pointCounts: null, points: null };
    expect(offerPlacesOf(rows, 3)).toEqual(emptyOfferPlaces(3));
  });

  it('refuses rows that do not fit the generation', () => {
    const rows = {
      placeIds: ['ch'],
      placeOffers: int32s(0),
      places: int32s(0),
      pointCounts: null,
      points: null,
    };
    expect(() => offerPlacesOf({ ...rows, placeOffers: int32s(5) }, 3)).toThrow(/ordinals below 3/);
    expect(() => offerPlacesOf({ ...rows, places: int32s(1) }, 3)).toThrow(/place ordinal 1/);
    expect(() => offerPlacesOf({ ...rows, placeOffers: int32s(1, 0), places: int32s(0, 0) }, 3)).toThrow(
      /ascending/,
    );
    expect(() => offerPlacesOf({ ...rows, pointCounts: int32s(0, 2), points: floats(1, 2) }, 3)).toThrow(
      /1 points for 2/,
    );
  });
});
