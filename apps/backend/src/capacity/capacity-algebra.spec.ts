import {
  activityOnDay,
  exact,
  Exactness,
  fillRate,
  maximum,
  Measure,
  minimum,
  regionRollUp,
  sum,
  tourRollUp,
  UNKNOWN,
  UNLIMITED,
} from './capacity-algebra';

const partial = (value: number): Measure => ({ value, exactness: 'partial' });
const SAMPLES: Record<Exactness, Measure> = {
  exact: exact(5),
  partial: partial(3),
  unknown: UNKNOWN,
  unlimited: UNLIMITED,
};
const KINDS = Object.keys(SAMPLES) as Exactness[];

describe('activityOnDay', () => {
  it('closed → exact 0, whatever the activity offers', () => {
    expect(activityOnDay({ capacity: 12, unlimited: false }, true)).toEqual(exact(0));
    expect(activityOnDay({ capacity: null, unlimited: true }, true)).toEqual(exact(0));
    expect(activityOnDay({ capacity: null, unlimited: false }, true)).toEqual(exact(0));
  });

  it('open: unlimited → unlimited, an integer (0 included) → exact, null → unknown', () => {
    expect(activityOnDay({ capacity: null, unlimited: true }, false)).toEqual(UNLIMITED);
    expect(activityOnDay({ capacity: 12, unlimited: false }, false)).toEqual(exact(12));
    expect(activityOnDay({ capacity: 0, unlimited: false }, false)).toEqual(exact(0));
    expect(activityOnDay({ capacity: null, unlimited: false }, false)).toEqual(UNKNOWN);
  });
});

describe('sum', () => {
  /** The expected exactness of a sum of two parts, by the rules of docs/decisions.md D-42. */
  const expectedSum = (a: Exactness, b: Exactness): Exactness => {
    if (a === 'unlimited' || b === 'unlimited') return 'unlimited';
    if (a === 'exact' && b === 'exact') return 'exact';
    if (a === 'unknown' && b === 'unknown') return 'unknown';
    return 'partial';
  };

  it.each(KINDS.flatMap((a) => KINDS.map((b) => [a, b] as const)))('%s + %s', (a, b) => {
    const result = sum([SAMPLES[a], SAMPLES[b]]);
    const exactness = expectedSum(a, b);
    expect(result.exactness).toBe(exactness);
    const knownTotal = [SAMPLES[a], SAMPLES[b]].reduce((acc, part) => acc + (part.value ?? 0), 0);
    expect(result.value).toBe(exactness === 'unlimited' || exactness === 'unknown' ? null : knownTotal);
  });

  it('adds plans (overflow from A goes to B): exact 4 + exact 6 = exact 10; zeros count', () => {
    expect(sum([exact(4), exact(6)])).toEqual(exact(10));
    expect(sum([exact(0), exact(0)])).toEqual(exact(0));
    expect(sum([exact(0), UNKNOWN])).toEqual(partial(0));
  });

  it('is exact 0 for no parts (a step without plans, a region without active tours)', () => {
    expect(sum([])).toEqual(exact(0));
  });

  it('does not depend on the order of the parts', () => {
    const parts = [exact(2), UNKNOWN, partial(7), exact(1)];
    expect(sum(parts)).toEqual(sum([...parts].reverse()));
    expect(sum(parts)).toEqual(partial(10));
  });
});

describe('minimum', () => {
  const expectedMin = (a: Exactness, b: Exactness): Exactness => {
    const bounded = [a, b].filter((kind) => kind !== 'unlimited');
    if (bounded.length === 0) return 'unlimited';
    if (bounded.every((kind) => kind === 'unknown')) return 'unknown';
    if (bounded.every((kind) => kind === 'exact')) return 'exact';
    return 'partial';
  };

  it.each(KINDS.flatMap((a) => KINDS.map((b) => [a, b] as const)))('min(%s, %s)', (a, b) => {
    const result = minimum([SAMPLES[a], SAMPLES[b]]);
    const exactness = expectedMin(a, b);
    expect(result.exactness).toBe(exactness);
    const known = [SAMPLES[a], SAMPLES[b]].filter((part) => part.value !== null).map((part) => part.value!);
    expect(result.value).toBe(
      exactness === 'unlimited' || exactness === 'unknown' ? null : Math.min(...known),
    );
  });

  it('ignores unlimited steps: min(unlimited, exact 8, exact 3) = exact 3; a closed step makes it 0', () => {
    expect(minimum([UNLIMITED, exact(8), exact(3)])).toEqual(exact(3));
    expect(minimum([exact(0), exact(8)])).toEqual(exact(0));
  });

  it('is unknown for no steps (a tour without dated steps)', () => {
    expect(minimum([])).toEqual(UNKNOWN);
  });
});

describe('fillRate', () => {
  it('unlimited capacity → exact 0; unknown → unknown', () => {
    expect(fillRate(40, UNLIMITED)).toEqual(exact(0));
    expect(fillRate(0, UNKNOWN)).toEqual(UNKNOWN);
  });

  it('exact and partial capacities give a fraction of the same exactness', () => {
    expect(fillRate(4, exact(10))).toEqual(exact(0.4));
    expect(fillRate(3, partial(12))).toEqual(partial(0.25));
    expect(fillRate(0, exact(10))).toEqual(exact(0));
  });

  it('zero capacity: no demand → 0; demand on exact 0 → unlimited (infinite); on a partial 0 → unknown', () => {
    expect(fillRate(0, exact(0))).toEqual(exact(0));
    expect(fillRate(2, exact(0))).toEqual(UNLIMITED);
    expect(fillRate(0, partial(0))).toEqual(partial(0));
    expect(fillRate(2, partial(0))).toEqual(UNKNOWN);
  });
});

describe('maximum', () => {
  it('an infinite rate wins; all exact → exact; a mix with unknown or partial → partial; all unknown → unknown', () => {
    expect(maximum([exact(0.2), UNLIMITED])).toEqual(UNLIMITED);
    expect(maximum([exact(0.2), exact(0.5)])).toEqual(exact(0.5));
    expect(maximum([exact(0.2), UNKNOWN])).toEqual(partial(0.2));
    expect(maximum([partial(0.7), exact(0.2)])).toEqual(partial(0.7));
    expect(maximum([UNKNOWN, UNKNOWN])).toEqual(UNKNOWN);
    expect(maximum([])).toEqual(UNKNOWN);
  });
});

describe('tourRollUp and regionRollUp', () => {
  it('a tour: steps are sums of plans, the tour their minimum, saturation the largest fill rate', () => {
    const tour = tourRollUp({
      datedSteps: [
        [exact(10), exact(5)], // day 1: 15
        [UNLIMITED], // day 2: unlimited
        [exact(6), exact(0)], // day 3: 6 (plan B closed)
      ],
      unplaceableStepsCount: 2,
      demand: 3,
    });
    expect(tour).toEqual({ capacity: exact(6), saturation: exact(0.5), unplaceableStepsCount: 2 });
  });

  it('a tour with an unknown plan on one step is partial; without dated steps it is unknown', () => {
    const mixed = tourRollUp({
      datedSteps: [[exact(8), UNKNOWN], [exact(20)]],
      unplaceableStepsCount: 0,
      demand: 4,
    });
    expect(mixed.capacity).toEqual(partial(8));
    expect(mixed.saturation).toEqual(partial(0.5));
    const undated = tourRollUp({ datedSteps: [], unplaceableStepsCount: 3, demand: 0 });
    expect(undated).toEqual({ capacity: UNKNOWN, saturation: UNKNOWN, unplaceableStepsCount: 3 });
  });

  it('a region sums its tours and divides its whole demand by that sum', () => {
    const region = regionRollUp([
      { id: 'a', datedSteps: [[exact(10)]], unplaceableStepsCount: 0, demand: 5 },
      { id: 'b', datedSteps: [[exact(30)], [exact(20)]], unplaceableStepsCount: 1, demand: 5 },
    ]);
    expect(region.capacity).toEqual(exact(30));
    expect(region.saturation.exactness).toBe('exact');
    expect(region.saturation.value).toBeCloseTo(10 / 30, 10);
    expect(region.tours.map((tour) => [tour.id, tour.capacity, tour.saturation])).toEqual([
      ['a', exact(10), exact(0.5)],
      ['b', exact(20), exact(0.25)],
    ]);
  });

  it('a region with an unlimited tour is unlimited with saturation exact 0; without tours exact 0', () => {
    const region = regionRollUp([
      { datedSteps: [[UNLIMITED]], unplaceableStepsCount: 0, demand: 9 },
      { datedSteps: [[exact(4)]], unplaceableStepsCount: 0, demand: 1 },
    ]);
    expect(region.capacity).toEqual(UNLIMITED);
    expect(region.saturation).toEqual(exact(0));
    expect(regionRollUp([])).toMatchObject({ capacity: exact(0), saturation: exact(0), tours: [] });
  });
});
