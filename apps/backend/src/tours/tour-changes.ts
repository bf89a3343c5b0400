import type { FieldErrors } from '@rt/errors';
import { sentFields } from '../common/sent-fields';
import type { OrganizationType } from '../organizations/organization.entity';
import type { TourStatus } from './tour.entity';
import type { TourFields } from './tours.repository';

/** The fields of `PUT /tour/{id}`. */
export interface TourUpdate {
  name?: string;
  color?: string;
  status?: TourStatus;
  partner_organization_id?: string;
  region_organization_id?: string | null;
}

/** `PUT /tour/{id}`: the fields sent; an absent region keeps the link, null clears it. */
export function tourChanges(dto: TourUpdate): Partial<TourFields> {
  return sentFields<TourUpdate, TourFields>(dto, {
    name: 'name',
    color: 'color',
    status: 'status',
    partner_organization_id: 'partnerOrganizationId',
    region_organization_id: 'regionOrganizationId',
  });
}

/**
 * The tour's organizations, checked: the partner must exist and the region be a region. Each
 * side is the type of the organization named (null when none has that id), or undefined when the
 * request names none.
 */
export function tourOrganizationProblems(
  partnerType: OrganizationType | null | undefined,
  regionType: OrganizationType | null | undefined,
): FieldErrors {
  const problems: FieldErrors = {};
  if (partnerType === null) {
    problems.partner_organization_id = ['The selected partner organization id is invalid.'];
  }
  if (regionType !== undefined && regionType !== 'region') {
    problems.region_organization_id = [
      regionType === null
        ? 'The selected region organization id is invalid.'
        : 'The region organization id field must name an organization of type region.',
    ];
  }
  return problems;
}
