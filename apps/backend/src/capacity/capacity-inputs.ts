import { addDays, daysBetween } from '../common/calendar-date';
import { activityOnDay, Measure, regionRollUp, RegionRollUp, TourOnDate } from './capacity-algebra';

/**
 * What the capacity roll-up reads from the database, and how it becomes the inputs of the algebra
 * (capacity-algebra.ts) for a departure date D: pure, so the date arithmetic (step k on
 * D + k − 1), the closures (inclusive ranges) and the demand (trips departing on D only) are
 * tested without a database.
 */

/** A plan of a step: the activity it names, as stored. */
export interface PlanInput {
  activityId: string;
  capacity: number | null;
  unlimited: boolean;
}

export interface StepInput {
  /** 1 = the departure day; null = undated (cannot be placed). */
  dayNumber: number | null;
  /** Plan A, B … (their order does not change a sum). */
  plans: PlanInput[];
}

/** An active tour of the region with its steps. */
export interface TourInput {
  tourId: string;
  name: string;
  steps: StepInput[];
}

/** A closure: the activity offers nothing from `startsOn` through `endsOn` (both inclusive). */
export interface ClosureInput {
  activityId: string;
  startsOn: string;
  endsOn: string;
}

/** The travellers of a tour's trips departing on one day. */
export interface DemandInput {
  tourId: string;
  startsOn: string;
  travellers: number;
}

/** One flat row of the steps query: a step with one of its plans, or with none (plan fields null). */
export interface StepPlanRow {
  tourId: string;
  stepId: string;
  dayNumber: number | null;
  activityId: string | null;
  capacity: number | null;
  unlimited: boolean | null;
}

/** The largest range form: 62 days (from and to included). */
export const MAX_RANGE_DAYS = 62;

/** Every date from `from` through `to`, both included. */
export function datesFrom(from: string, to: string): string[] {
  const count = daysBetween(from, to) + 1;
  return Array.from({ length: Math.max(count, 0) }, (_, i) => addDays(from, i));
}

/**
 * The tours with their steps and plans, from the tours query (already in the region's order) and
 * the flat steps query (one row per plan, in any order). A tour without steps keeps an empty list.
 */
export function assembleTours(tours: { tourId: string; name: string }[], rows: StepPlanRow[]): TourInput[] {
  const steps = new Map<string, Map<string, StepInput>>();
  for (const row of rows) {
    let ofTour = steps.get(row.tourId);
    if (!ofTour) steps.set(row.tourId, (ofTour = new Map()));
    let step = ofTour.get(row.stepId);
    if (!step) ofTour.set(row.stepId, (step = { dayNumber: row.dayNumber, plans: [] }));
    if (row.activityId !== null) {
      step.plans.push({
        activityId: row.activityId,
        capacity: row.capacity,
        unlimited: row.unlimited === true,
      });
    }
  }
  return tours.map((tour) => ({ ...tour, steps: [...(steps.get(tour.tourId)?.values() ?? [])] }));
}

/** The largest day_number over the tours (1 when none is dated): a departure's last evaluated day. */
export function largestDayNumber(tours: readonly TourInput[]): number {
  let largest = 1;
  for (const tour of tours) {
    for (const step of tour.steps)
      if (step.dayNumber !== null && step.dayNumber > largest) largest = step.dayNumber;
  }
  return largest;
}

/**
 * The dates whose closures matter for departures from `from` through `to`: a step on day k of a
 * departure on `to` is evaluated on to + k − 1.
 */
export function evaluationWindow(from: string, to: string, largestDay: number): { from: string; to: string } {
  return { from, to: addDays(to, largestDay - 1) };
}

/**
 * Which activities are closed on which days of an evaluation window (closure ranges are inclusive
 * at both ends; the parts outside the window are dropped). Days are also addressed by their index
 * in the window (0 = `window.from`), which is how the roll-up asks, without date arithmetic.
 */
export class ClosedDays {
  private readonly byActivity = new Map<string, Uint8Array>();
  readonly length: number;

  constructor(
    closures: readonly ClosureInput[],
    readonly window: { from: string; to: string },
  ) {
    this.length = daysBetween(window.from, window.to) + 1;
    for (const closure of closures) {
      const first = Math.max(0, daysBetween(window.from, closure.startsOn));
      const last = Math.min(this.length - 1, daysBetween(window.from, closure.endsOn));
      if (first > last) continue;
      let days = this.byActivity.get(closure.activityId);
      if (!days) this.byActivity.set(closure.activityId, (days = new Uint8Array(this.length)));
      days.fill(1, first, last + 1);
    }
  }

  /** Whether the activity has any closure in the window. */
  hasAny(activityId: string): boolean {
    return this.byActivity.has(activityId);
  }

  /** Whether the activity is closed on the window's day `index`. */
  isClosedAt(activityId: string, index: number): boolean {
    if (index < 0 || index >= this.length) throw new RangeError(`day ${index} is outside the window`);
    return this.byActivity.get(activityId)?.[index] === 1;
  }

  isClosed(activityId: string, date: string): boolean {
    return this.isClosedAt(activityId, daysBetween(this.window.from, date));
  }
}

/** The travellers per tour and departure date. */
export class Demand {
  private readonly byTour = new Map<string, Map<string, number>>();

  constructor(rows: readonly DemandInput[]) {
    for (const row of rows) {
      const ofTour = this.byTour.get(row.tourId) ?? new Map<string, number>();
      ofTour.set(row.startsOn, (ofTour.get(row.startsOn) ?? 0) + row.travellers);
      this.byTour.set(row.tourId, ofTour);
    }
  }

  /** The travellers of the tour's trips departing on `date` (not those that departed earlier). */
  of(tourId: string, date: string): number {
    return this.byTour.get(tourId)?.get(date) ?? 0;
  }
}

const CLOSED: Measure = Object.freeze(activityOnDay({ capacity: null, unlimited: false }, true));

/** A dated step with the offer of each plan on a day without closure, computed once. */
interface PreparedStep {
  dayNumber: number;
  plans: readonly PlanInput[];
  open: Measure[];
  /** Whether some plan's activity has a closure in the window (else `open` holds every day). */
  closable: boolean;
}

interface PreparedTour {
  tour: TourInput;
  datedSteps: PreparedStep[];
  unplaceableStepsCount: number;
}

function prepare(tour: TourInput, closed: ClosedDays): PreparedTour {
  const datedSteps: PreparedStep[] = [];
  let unplaceableStepsCount = 0;
  for (const step of tour.steps) {
    if (step.dayNumber === null) {
      unplaceableStepsCount++;
      continue;
    }
    datedSteps.push({
      dayNumber: step.dayNumber,
      plans: step.plans,
      open: step.plans.map((plan) => activityOnDay(plan, false)),
      closable: step.plans.some((plan) => closed.hasAny(plan.activityId)),
    });
  }
  return { tour, datedSteps, unplaceableStepsCount };
}

/** The tour departing on the window's day `dateIndex`: step k on day dateIndex + k − 1. */
function onDay(prepared: PreparedTour, date: string, dateIndex: number, closed: ClosedDays, demand: Demand) {
  const datedSteps = prepared.datedSteps.map((step) => {
    if (!step.closable) return step.open;
    const day = dateIndex + step.dayNumber - 1;
    return step.plans.map((plan, i) => (closed.isClosedAt(plan.activityId, day) ? CLOSED : step.open[i]));
  });
  return {
    datedSteps,
    unplaceableStepsCount: prepared.unplaceableStepsCount,
    demand: demand.of(prepared.tour.tourId, date),
  };
}

/**
 * A tour on departure date D: each dated step k with the offer of each plan on D + k − 1 (closed
 * → exact 0); undated steps only counted; the demand of trips departing on D. `closed` covers
 * every day evaluated (evaluationWindow).
 */
export function tourOnDate(tour: TourInput, date: string, closed: ClosedDays, demand: Demand): TourOnDate {
  return onDay(prepare(tour, closed), date, daysBetween(closed.window.from, date), closed, demand);
}

export interface TourOnDateOf extends TourOnDate {
  tourId: string;
  name: string;
}

/**
 * The region's roll-up on each of `dates` (consecutive, within `closed`'s window): every
 * tour assembled for that date, then the algebra. Each plan's offer is computed once; only the
 * plans of activities with a closure in the window are looked at day by day.
 */
export function regionOnDates(
  tours: readonly TourInput[],
  dates: readonly string[],
  closed: ClosedDays,
  demand: Demand,
): { date: string; rollUp: RegionRollUp<TourOnDateOf> }[] {
  const prepared = tours.map((tour) => prepare(tour, closed));
  const first = dates.length > 0 ? daysBetween(closed.window.from, dates[0]) : 0;
  return dates.map((date, i) => ({
    date,
    rollUp: regionRollUp(
      prepared.map((tour) => ({
        tourId: tour.tour.tourId,
        name: tour.tour.name,
        ...onDay(tour, date, first + i, closed, demand),
      })),
    ),
  }));
}
