import { newStepOrder, stepChanges } from './step-changes';

describe('stepChanges', () => {
  it('holds the fields sent; null clears the day or the time', () => {
    expect(stepChanges({})).toEqual({});
    expect(stepChanges({ day_number: 2, time: '09:30' })).toEqual({ dayNumber: 2, time: '09:30:00' });
    expect(stepChanges({ day_number: null, time: null })).toEqual({ dayNumber: null, time: null });
  });
});

describe('newStepOrder', () => {
  const current = ['a1', 'b2', 'c3'];

  it('answers the order asked for, lower-cased, when it lists each step once', () => {
    expect(newStepOrder(['c3', 'a1', 'b2'], current)).toEqual(['c3', 'a1', 'b2']);
    expect(newStepOrder(['B2', 'C3', 'A1'], current)).toEqual(['b2', 'c3', 'a1']);
    expect(newStepOrder([], [])).toEqual([]);
  });

  it('refuses a step left out, repeated or not of the tour', () => {
    expect(newStepOrder(['a1', 'b2'], current)).toBeNull();
    expect(newStepOrder(['a1', 'b2', 'b2'], current)).toBeNull();
    expect(newStepOrder(['a1', 'B2', 'b2'], current)).toBeNull();
    expect(newStepOrder(['a1', 'b2', 'd4'], current)).toBeNull();
    expect(newStepOrder(['a1', 'b2', 'c3', 'd4'], current)).toBeNull();
  });
});
