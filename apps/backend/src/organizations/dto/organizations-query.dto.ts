import { EnumField, PageQueryDto } from '@rt/contracts';
import {
  ORGANIZATION_STATUSES,
  ORGANIZATION_TYPES,
  type OrganizationStatus,
  type OrganizationType,
} from '../organization.entity';

/** `GET /organizations`: filters and the page (per_page 25 by default, capped silently at 100). */
export class OrganizationsQueryDto extends PageQueryDto {
  @EnumField(ORGANIZATION_TYPES, 'OrganizationType', {
    optional: true,
    description: 'Only organizations of this type; any other value → 422.',
  })
  type?: OrganizationType;

  @EnumField(ORGANIZATION_STATUSES, 'OrganizationStatus', {
    optional: true,
    description: 'Only organizations in this status; any other value → 422.',
  })
  status?: OrganizationStatus;
}
