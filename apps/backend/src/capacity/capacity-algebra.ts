/**
 * The capacity algebra of docs/decisions.md D-42, pure: every aggregate is a value with
 * its exactness, never a bare number.
 *
 * - `exact`: the value is the capacity.
 * - `unlimited`: no bound (value null).
 * - `unknown`: nothing is known (value null).
 * - `partial`: some parts are unknown; the value comes from the known parts (for a sum, a lower
 *   bound of the true capacity; for a minimum, an upper bound).
 *
 * Saturations are fractions (0.4 = 40%) with the same four exactnesses; a saturation that is
 * `unlimited` means demand on a capacity of exactly 0 (an infinite fill rate).
 */
export type Exactness = 'exact' | 'partial' | 'unknown' | 'unlimited';

export interface Measure {
  value: number | null;
  exactness: Exactness;
}

export const exact = (value: number): Measure => ({ value, exactness: 'exact' });
export const UNLIMITED: Measure = Object.freeze({ value: null, exactness: 'unlimited' });
export const UNKNOWN: Measure = Object.freeze({ value: null, exactness: 'unknown' });
const partial = (value: number): Measure => ({ value, exactness: 'partial' });

/** What an activity offers on a day: closed → exact 0; unlimited; an integer → exact; null → unknown. */
export function activityOnDay(
  activity: { capacity: number | null; unlimited: boolean },
  closed: boolean,
): Measure {
  if (closed) return exact(0);
  if (activity.unlimited) return UNLIMITED;
  return activity.capacity === null ? UNKNOWN : exact(activity.capacity);
}

/**
 * A sum (a step over its plans, a region over its tours): any unlimited part → unlimited; all
 * exact → exact; known and unknown parts mixed (or a partial part) → partial, valued by the known
 * parts; all unknown → unknown. An empty sum is exact 0 (a step without plans offers nothing).
 */
export function sum(parts: readonly Measure[]): Measure {
  if (parts.some((part) => part.exactness === 'unlimited')) return UNLIMITED;
  const known = parts.filter((part) => part.value !== null);
  const total = known.reduce((acc, part) => acc + (part.value as number), 0);
  if (parts.length === 0 || parts.every((part) => part.exactness === 'exact')) return exact(total);
  if (known.length === 0) return UNKNOWN;
  return partial(total);
}

/**
 * A minimum (a tour over its dated steps): unlimited parts are ignored (all unlimited → unlimited);
 * of the rest, all exact → exact; known and unknown mixed (or a partial part) → partial, valued by
 * the smallest known part; all unknown → unknown. An empty minimum (a tour without dated steps)
 * is unknown: nothing can be placed.
 */
export function minimum(parts: readonly Measure[]): Measure {
  if (parts.length === 0) return UNKNOWN;
  const bounded = parts.filter((part) => part.exactness !== 'unlimited');
  if (bounded.length === 0) return UNLIMITED;
  const known = bounded.filter((part) => part.value !== null);
  if (known.length === 0) return UNKNOWN;
  const least = Math.min(...known.map((part) => part.value as number));
  return bounded.every((part) => part.exactness === 'exact') ? exact(least) : partial(least);
}

/**
 * Demand over capacity: unlimited capacity → exact 0; unknown → unknown; exact → exact; partial →
 * partial. Zero capacity: no demand → 0, demand → unlimited (an infinite fill rate); a partial
 * zero with demand → unknown.
 */
export function fillRate(demand: number, capacity: Measure): Measure {
  switch (capacity.exactness) {
    case 'unlimited':
      return exact(0);
    case 'unknown':
      return UNKNOWN;
    case 'exact':
    case 'partial': {
      const value = capacity.value as number;
      const make = capacity.exactness === 'exact' ? exact : partial;
      if (value > 0) return make(demand / value);
      if (demand === 0) return make(0);
      return capacity.exactness === 'exact' ? UNLIMITED : UNKNOWN;
    }
  }
}

/**
 * The largest of several fill rates (a tour's saturation over its dated steps): an infinite one
 * (unlimited) wins; all exact → exact; known and unknown mixed (or a partial one) → partial,
 * valued by the largest known; all unknown → unknown. No dated step → unknown.
 */
export function maximum(rates: readonly Measure[]): Measure {
  if (rates.length === 0) return UNKNOWN;
  if (rates.some((rate) => rate.exactness === 'unlimited')) return UNLIMITED;
  const known = rates.filter((rate) => rate.value !== null);
  if (known.length === 0) return UNKNOWN;
  const largest = Math.max(...known.map((rate) => rate.value as number));
  return rates.every((rate) => rate.exactness === 'exact') ? exact(largest) : partial(largest);
}

/** The inputs of one tour on one departure date, already read from the database. */
export interface TourOnDate {
  /** Dated steps: for each, the offer of each plan on the step's day (D + day_number − 1). */
  datedSteps: Measure[][];
  /** Steps without day_number: counted, invisible to the fill computation. */
  unplaceableStepsCount: number;
  /** Travellers of the tour's trips departing on D. */
  demand: number;
}

export interface TourRollUp {
  capacity: Measure;
  saturation: Measure;
  unplaceableStepsCount: number;
}

export function tourRollUp(tour: TourOnDate): TourRollUp {
  const steps = tour.datedSteps.map(sum);
  return {
    capacity: minimum(steps),
    saturation: maximum(steps.map((step) => fillRate(tour.demand, step))),
    unplaceableStepsCount: tour.unplaceableStepsCount,
  };
}

export interface RegionRollUp<T> {
  capacity: Measure;
  saturation: Measure;
  tours: (T & TourRollUp)[];
}

/** A region on a date: capacity = sum over its active tours; saturation = its demand / capacity. */
export function regionRollUp<T extends TourOnDate>(tours: readonly T[]): RegionRollUp<T> {
  const rolled = tours.map((tour) => ({ ...tour, ...tourRollUp(tour) }));
  const capacity = sum(rolled.map((tour) => tour.capacity));
  const demand = tours.reduce((acc, tour) => acc + tour.demand, 0);
  return { capacity, saturation: fillRate(demand, capacity), tours: rolled };
}
