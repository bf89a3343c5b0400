import { commissionOf, organizationChanges, statusMoveOf } from './organization-rules';

describe('statusMoveOf', () => {
  const invited = new Date('2026-01-01T00:00:00Z');

  it('does nothing when the organization already has the status', () => {
    expect(statusMoveOf({ status: 'approved', managerInvitedAt: null }, 'approved')).toBe('none');
    expect(statusMoveOf({ status: 'suspended', managerInvitedAt: invited }, 'suspended')).toBe('none');
  });

  it('notifies the manager at the first approval of an organization they have not heard about', () => {
    expect(statusMoveOf({ status: 'pending', managerInvitedAt: null }, 'approved')).toBe('first-approval');
    // Suspended before any approval: the manager still has not heard from us.
    expect(statusMoveOf({ status: 'suspended', managerInvitedAt: null }, 'approved')).toBe('first-approval');
  });

  it('only sets the status once the manager was told, and for every suspension', () => {
    expect(statusMoveOf({ status: 'pending', managerInvitedAt: invited }, 'approved')).toBe('move');
    expect(statusMoveOf({ status: 'suspended', managerInvitedAt: invited }, 'approved')).toBe('move');
    expect(statusMoveOf({ status: 'pending', managerInvitedAt: null }, 'suspended')).toBe('move');
    expect(statusMoveOf({ status: 'approved', managerInvitedAt: invited }, 'suspended')).toBe('move');
  });
});

describe('commissionOf', () => {
  it('is the pair when both halves are sent, nothing otherwise', () => {
    expect(commissionOf({ commission: 12.5, commission_type: 'percent' })).toEqual({
      value: 12.5,
      type: 'percent',
    });
    expect(commissionOf({ commission: 0, commission_type: 'fixed' })).toEqual({ value: 0, type: 'fixed' });
    expect(commissionOf({ commission: 12.5 })).toBeUndefined();
    expect(commissionOf({ commission_type: 'fixed' })).toBeUndefined();
    expect(commissionOf({})).toBeUndefined();
  });
});

describe('organizationChanges', () => {
  it('holds the fields sent; null clears the description', () => {
    expect(organizationChanges({})).toEqual({});
    expect(organizationChanges({ name: 'Alps' })).toEqual({ name: 'Alps' });
    expect(organizationChanges({ description: null })).toEqual({ description: null });
  });

  it('writes the commission as numeric(10,2) text with its type, only as a whole pair', () => {
    expect(organizationChanges({ commission: 12.5, commission_type: 'percent' })).toEqual({
      commission: '12.50',
      commissionType: 'percent',
    });
    expect(organizationChanges({ commission: 3, commission_type: 'fixed', name: 'B' })).toEqual({
      name: 'B',
      commission: '3.00',
      commissionType: 'fixed',
    });
    expect(organizationChanges({ commission: 3 })).toEqual({});
  });
});
