import { exact, UNKNOWN, UNLIMITED } from './capacity-algebra';
import {
  assembleTours,
  ClosedDays,
  datesFrom,
  Demand,
  evaluationWindow,
  largestDayNumber,
  regionOnDates,
  StepPlanRow,
  TourInput,
  tourOnDate,
} from './capacity-inputs';

const plan = (activityId: string, capacity: number | null, unlimited = false) => ({
  activityId,
  capacity,
  unlimited,
});

/** Day 1: A (10) + B (unknown); day 2: C (4); day 3: U (unlimited); one undated step. */
const tour: TourInput = {
  tourId: 't1',
  name: 'Alps loop',
  steps: [
    { dayNumber: 1, plans: [plan('a', 10), plan('b', null)] },
    { dayNumber: 2, plans: [plan('c', 4)] },
    { dayNumber: null, plans: [plan('z', 1)] },
    { dayNumber: 3, plans: [plan('u', null, true)] },
  ],
};
/** Closures over a window wide enough for every departure these tests evaluate. */
const WINDOW = { from: '2026-11-01', to: '2026-12-31' };
const closedOn = (closures: ConstructorParameters<typeof ClosedDays>[0]) => new ClosedDays(closures, WINDOW);
const none = closedOn([]);
const noDemand = new Demand([]);

describe('datesFrom', () => {
  it('lists every date, both ends included, across a month end', () => {
    expect(datesFrom('2026-11-29', '2026-12-02')).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
    expect(datesFrom('2026-11-24', '2026-11-24')).toEqual(['2026-11-24']);
    expect(datesFrom('2026-11-24', '2026-12-24')).toHaveLength(31);
  });
});

describe('assembleTours', () => {
  it('groups flat rows into steps and plans, keeping tours without steps and steps without plans', () => {
    const rows: StepPlanRow[] = [
      { tourId: 't1', stepId: 's1', dayNumber: 1, activityId: 'a', capacity: 10, unlimited: false },
      { tourId: 't1', stepId: 's1', dayNumber: 1, activityId: 'u', capacity: null, unlimited: true },
      { tourId: 't1', stepId: 's2', dayNumber: null, activityId: null, capacity: null, unlimited: null },
    ];
    expect(
      assembleTours(
        [
          { tourId: 't1', name: 'One' },
          { tourId: 't2', name: 'Two' },
        ],
        rows,
      ),
    ).toEqual([
      {
        tourId: 't1',
        name: 'One',
        steps: [
          { dayNumber: 1, plans: [plan('a', 10), plan('u', null, true)] },
          { dayNumber: null, plans: [] },
        ],
      },
      { tourId: 't2', name: 'Two', steps: [] },
    ]);
  });
});

describe('evaluationWindow', () => {
  it('reaches the last dated day of a departure on the last date', () => {
    expect(largestDayNumber([tour])).toBe(3);
    expect(evaluationWindow('2026-11-24', '2026-11-30', 3)).toEqual({ from: '2026-11-24', to: '2026-12-02' });
    expect(largestDayNumber([{ tourId: 't', name: 'n', steps: [{ dayNumber: null, plans: [] }] }])).toBe(1);
    expect(evaluationWindow('2026-11-24', '2026-11-24', 1)).toEqual({ from: '2026-11-24', to: '2026-11-24' });
  });
});

describe('ClosedDays', () => {
  const closed = closedOn([
    { activityId: 'a', startsOn: '2026-11-25', endsOn: '2026-11-27' },
    { activityId: 'a', startsOn: '2026-12-01', endsOn: '2026-12-01' },
  ]);

  it('closes both boundary days and every day between, only for that activity', () => {
    expect(closed.isClosed('a', '2026-11-24')).toBe(false);
    expect(closed.isClosed('a', '2026-11-25')).toBe(true);
    expect(closed.isClosed('a', '2026-11-26')).toBe(true);
    expect(closed.isClosed('a', '2026-11-27')).toBe(true);
    expect(closed.isClosed('a', '2026-11-28')).toBe(false);
    expect(closed.isClosed('a', '2026-12-01')).toBe(true);
    expect(closed.isClosed('b', '2026-11-26')).toBe(false);
    expect(closed.hasAny('a')).toBe(true);
    expect(closed.hasAny('b')).toBe(false);
  });

  it('keeps the part of a range inside the window, addressed by day index, and refuses days outside', () => {
    const window = new ClosedDays(
      [
        { activityId: 'a', startsOn: '2026-11-20', endsOn: '2026-11-24' },
        { activityId: 'b', startsOn: '2026-11-27', endsOn: '2026-12-05' },
        { activityId: 'c', startsOn: '2026-12-01', endsOn: '2026-12-02' },
      ],
      { from: '2026-11-24', to: '2026-11-28' },
    );
    expect(window.length).toBe(5);
    expect([0, 1, 2, 3, 4].map((i) => window.isClosedAt('a', i))).toEqual([true, false, false, false, false]);
    expect([0, 1, 2, 3, 4].map((i) => window.isClosedAt('b', i))).toEqual([false, false, false, true, true]);
    expect(window.hasAny('c')).toBe(false);
    expect(() => window.isClosedAt('a', 5)).toThrow(RangeError);
    expect(() => window.isClosed('a', '2026-11-23')).toThrow(RangeError);
  });
});

describe('tourOnDate', () => {
  it('evaluates step k on D + k − 1 and counts the undated steps apart', () => {
    expect(tourOnDate(tour, '2026-11-24', none, noDemand)).toEqual({
      datedSteps: [[exact(10), UNKNOWN], [exact(4)], [UNLIMITED]],
      unplaceableStepsCount: 1,
      demand: 0,
    });
  });

  it('applies a closure on the day a later step is evaluated, not on the departure day', () => {
    // c (day 2) closed on the 25th: a departure on the 24th meets it, one on the 25th does not.
    const closed = closedOn([{ activityId: 'c', startsOn: '2026-11-25', endsOn: '2026-11-25' }]);
    expect(tourOnDate(tour, '2026-11-24', closed, noDemand).datedSteps[1]).toEqual([exact(0)]);
    expect(tourOnDate(tour, '2026-11-25', closed, noDemand).datedSteps[1]).toEqual([exact(4)]);
    expect(tourOnDate(tour, '2026-11-23', closed, noDemand).datedSteps[1]).toEqual([exact(4)]);
  });

  it('closes on both boundary days of a range, an unlimited and an unknown activity included', () => {
    const closed = closedOn([
      { activityId: 'u', startsOn: '2026-11-26', endsOn: '2026-11-28' },
      { activityId: 'b', startsOn: '2026-11-20', endsOn: '2026-11-24' },
    ]);
    // u is on day 3: departures on the 24th (→ 26th) and the 26th (→ 28th) meet the closure.
    expect(tourOnDate(tour, '2026-11-24', closed, noDemand).datedSteps[2]).toEqual([exact(0)]);
    expect(tourOnDate(tour, '2026-11-26', closed, noDemand).datedSteps[2]).toEqual([exact(0)]);
    expect(tourOnDate(tour, '2026-11-23', closed, noDemand).datedSteps[2]).toEqual([UNLIMITED]);
    expect(tourOnDate(tour, '2026-11-27', closed, noDemand).datedSteps[2]).toEqual([UNLIMITED]);
    // b is on day 1: closed through the 24th.
    expect(tourOnDate(tour, '2026-11-24', closed, noDemand).datedSteps[0]).toEqual([exact(10), exact(0)]);
    expect(tourOnDate(tour, '2026-11-25', closed, noDemand).datedSteps[0]).toEqual([exact(10), UNKNOWN]);
  });

  it('takes the demand of trips departing on D only, summed', () => {
    const demand = new Demand([
      { tourId: 't1', startsOn: '2026-11-24', travellers: 2 },
      { tourId: 't1', startsOn: '2026-11-24', travellers: 3 },
      { tourId: 't1', startsOn: '2026-11-23', travellers: 7 },
      { tourId: 't2', startsOn: '2026-11-24', travellers: 9 },
    ]);
    expect(tourOnDate(tour, '2026-11-24', none, demand).demand).toBe(5);
    expect(tourOnDate(tour, '2026-11-23', none, demand).demand).toBe(7);
    expect(tourOnDate(tour, '2026-11-25', none, demand).demand).toBe(0);
  });

  it('gives the same answer whether the activity has closures elsewhere in the window or none', () => {
    const elsewhere = closedOn([{ activityId: 'a', startsOn: '2026-12-20', endsOn: '2026-12-21' }]);
    expect(tourOnDate(tour, '2026-11-24', elsewhere, noDemand)).toEqual(
      tourOnDate(tour, '2026-11-24', none, noDemand),
    );
  });

  it('keeps a step without plans (it offers exact 0 to the algebra)', () => {
    const bare: TourInput = { tourId: 't', name: 'n', steps: [{ dayNumber: 1, plans: [] }] };
    expect(tourOnDate(bare, '2026-11-24', none, noDemand).datedSteps).toEqual([[]]);
  });
});

describe('regionOnDates', () => {
  it('rolls every tour up on every date, each date with its own closures and demand', () => {
    const closed = closedOn([{ activityId: 'a', startsOn: '2026-11-25', endsOn: '2026-11-25' }]);
    const demand = new Demand([{ tourId: 't1', startsOn: '2026-11-24', travellers: 2 }]);
    const days = regionOnDates([tour], ['2026-11-24', '2026-11-25'], closed, demand);
    expect(days.map((day) => day.date)).toEqual(['2026-11-24', '2026-11-25']);
    // 24th: min(partial 10 (a + unknown b), exact 4, unlimited) = partial 4; demand 2 → 0.5.
    expect(days[0].rollUp.capacity).toEqual({ value: 4, exactness: 'partial' });
    expect(days[0].rollUp.tours[0]).toMatchObject({
      tourId: 't1',
      name: 'Alps loop',
      saturation: { value: 0.5, exactness: 'partial' },
      unplaceableStepsCount: 1,
    });
    // 25th: a closed, b unknown → step 1 is partial 0; no demand.
    expect(days[1].rollUp.capacity).toEqual({ value: 0, exactness: 'partial' });
    expect(days[1].rollUp.saturation).toEqual({ value: 0, exactness: 'partial' });
  });
});
