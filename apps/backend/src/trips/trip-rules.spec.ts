import type { ViewingContext } from '../access/access';
import type { Hat } from '../access/hat';
import { startsInPast, tripVisibleTo } from './trip-rules';

describe('startsInPast', () => {
  it('allows a departure today or later in Europe/Zurich', () => {
    const now = new Date('2026-06-15T10:00:00Z');
    expect(startsInPast('2026-06-14', now)).toBe(true);
    expect(startsInPast('2026-06-15', now)).toBe(false);
    expect(startsInPast('2026-06-16', now)).toBe(false);
  });

  it('counts days in Zurich, not in UTC', () => {
    // 22:30 UTC on 15 June is 00:30 on 16 June in Zurich: the 15th is already past.
    expect(startsInPast('2026-06-15', new Date('2026-06-15T22:30:00Z'))).toBe(true);
    // 23:30 UTC on 31 December is 00:30 on 1 January in Zurich (UTC+1 in winter).
    expect(startsInPast('2026-12-31', new Date('2026-12-31T23:30:00Z'))).toBe(true);
    expect(startsInPast('2026-12-31', new Date('2026-12-31T22:30:00Z'))).toBe(false);
  });
});

describe('tripVisibleTo', () => {
  const viewing = (userId: string, hat: Hat): ViewingContext => ({
    hat,
    user: { id: userId, email: `${userId}@example.com`, isSuperAdmin: hat.kind === 'super-admin' },
    organizationRole: null,
  });
  const trip = { userId: 'traveller' };

  it('shows a trip to its traveller under any hat', () => {
    expect(tripVisibleTo(trip, viewing('traveller', { kind: 'traveller' }))).toBe(true);
    expect(tripVisibleTo(trip, viewing('traveller', { kind: 'organization', organizationId: 'org' }))).toBe(
      true,
    );
  });

  it('shows anyone’s trip under the super-admin hat only', () => {
    expect(tripVisibleTo(trip, viewing('admin', { kind: 'super-admin' }))).toBe(true);
    expect(tripVisibleTo(trip, viewing('admin', { kind: 'traveller' }))).toBe(false);
    expect(tripVisibleTo(trip, viewing('stranger', { kind: 'traveller' }))).toBe(false);
    // A trip whose traveller is gone (user_id null) shows under the super-admin hat only.
    expect(tripVisibleTo({ userId: null }, viewing('admin', { kind: 'super-admin' }))).toBe(true);
    expect(tripVisibleTo({ userId: null }, viewing('stranger', { kind: 'traveller' }))).toBe(false);
    expect(tripVisibleTo(trip, viewing('stranger', { kind: 'organization', organizationId: 'o' }))).toBe(
      false,
    );
  });
});
