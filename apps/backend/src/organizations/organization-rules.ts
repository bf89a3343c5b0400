import { sentFields } from '../common/sent-fields';
import type { OrganizationChanges } from './organizations.repository';
import type { CommissionType, OrganizationStatus } from './organization.entity';

/**
 * What `PATCH /organizations/{id}/status` does to an organization: nothing when it already has
 * the status; the first approval of one whose manager has not heard from us (a signup) notifies
 * the manager and stamps `manager_invited_at`; any other move only sets the status.
 */
export type StatusMove = 'none' | 'first-approval' | 'move';

export function statusMoveOf(
  organization: { status: OrganizationStatus; managerInvitedAt: Date | null },
  target: OrganizationStatus,
): StatusMove {
  if (organization.status === target) return 'none';
  if (target === 'approved' && organization.managerInvitedAt === null) return 'first-approval';
  return 'move';
}

/** The commission pair when both halves are sent (validation refuses one alone). */
export function commissionOf(dto: {
  commission?: number;
  commission_type?: CommissionType;
}): { value: number; type: CommissionType } | undefined {
  return dto.commission !== undefined && dto.commission_type !== undefined
    ? { value: dto.commission, type: dto.commission_type }
    : undefined;
}

/** `PATCH /organizations/{id}`: the fields sent; the commission pair whole, as numeric(10,2) text. */
export function organizationChanges(dto: {
  name?: string;
  description?: string | null;
  commission?: number;
  commission_type?: CommissionType;
}): OrganizationChanges {
  const changes = sentFields<typeof dto, OrganizationChanges>(dto, {
    name: 'name',
    description: 'description',
  });
  const commission = commissionOf(dto);
  if (commission) {
    changes.commission = commission.value.toFixed(2);
    changes.commissionType = commission.type;
  }
  return changes;
}
