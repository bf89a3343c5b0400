import { activityChanges, unlimitedWithCapacityProblem } from './activity-changes';

describe('unlimitedWithCapacityProblem', () => {
  const limited = { capacity: 12, unlimited: false };
  const unlimited = { capacity: null, unlimited: true };
  const open = { capacity: null, unlimited: false };

  it('lets an update through when the result has a capacity or is unlimited, not both', () => {
    expect(unlimitedWithCapacityProblem(limited, {})).toBeNull();
    expect(unlimitedWithCapacityProblem(limited, { capacity: 20 })).toBeNull();
    expect(unlimitedWithCapacityProblem(limited, { unlimited: true, capacity: null })).toBeNull();
    expect(unlimitedWithCapacityProblem(unlimited, { unlimited: false, capacity: 5 })).toBeNull();
    expect(unlimitedWithCapacityProblem(unlimited, { name: 'x' })).toBeNull();
    expect(unlimitedWithCapacityProblem(open, { unlimited: true })).toBeNull();
    expect(unlimitedWithCapacityProblem(open, { capacity: 8 })).toBeNull();
  });

  it('refuses unlimited: true alone on an activity with a capacity', () => {
    expect(unlimitedWithCapacityProblem(limited, { unlimited: true })).toBe(
      'The capacity field must be sent as null with unlimited: true (the activity has a capacity).',
    );
  });

  it('refuses a capacity for an activity that is or becomes unlimited', () => {
    const message =
      'The capacity field must be null while the activity is unlimited (send unlimited: false with it).';
    expect(unlimitedWithCapacityProblem(unlimited, { capacity: 5 })).toBe(message);
    expect(unlimitedWithCapacityProblem(open, { unlimited: true, capacity: 5 })).toBe(message);
    expect(unlimitedWithCapacityProblem(limited, { unlimited: true, capacity: 12 })).toBe(message);
  });
});

describe('activityChanges', () => {
  it('holds the fields sent, under the row names; null clears the image and the capacity', () => {
    expect(activityChanges({})).toEqual({});
    expect(
      activityChanges({ provider_id: 'p', name: 'Hike', image_id: null, capacity: null, unlimited: true }),
    ).toEqual({ providerId: 'p', name: 'Hike', imageId: null, capacity: null, unlimited: true });
    expect(activityChanges({ capacity: 0 })).toEqual({ capacity: 0 });
  });
});
